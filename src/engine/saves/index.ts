/** Saving an editor's text back to a file record, as a kind of the engine's work. */
export { digestOf, interruptedWords, saveNoUndoWords, type SaveBefore, type SaveClient, type SaveRecord } from './kind';
export * from './run';
