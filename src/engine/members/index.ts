/** The write engine's member kind: what the features call to change members. */
export * from './model';
export * from './apply';
export * from './requests';
export * from './undo';
export * from './snapshot';
export { groupLevelsOf, memberBefore, portalMemberOf, readGroups } from './portal';
export { NOW_PERMANENT } from './kind';
export { Journal } from '../journalFile';
export * from './journal';
export * from './edits';
export * from './history';
