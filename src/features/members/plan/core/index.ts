/** The engine of "membership as code": parse, diagnose, read the portal, plan, apply, journal, undo, report. */
export * from './model';
export * from './file/membersFile';
export * from './file/diagnose';
export * from './portalState';
export * from './planner';
export * from '../../../../engine/members/apply';
export * from '../../../../engine/members/undo';
export {
  discardJournal,
  Journal,
  journalFolderOf,
  lastUndoable,
  listJournals,
  readJournal,
  unfinishedJournals,
} from '../../../../engine/journalFile';
export * from './report';
export * from '../../../../engine/members/snapshot';
