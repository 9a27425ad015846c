/** Settings changes (a group, the organisation, an application) as a kind of the engine's work. */
export * from './model';
export { noUndoWords, settingsUndo } from './kind';
export type { SettingsAnswer, SettingsClient } from './portal';
export * from './run';
