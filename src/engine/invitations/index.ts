/** Invitations to an organisation as a kind of the engine's work (observed endpoint; no undo). */
export * from './model';
export * from './plan';
export * from './run';
export { noInviteUndoText, notOfferedText } from './kind';
