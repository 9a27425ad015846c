/**
 * Changes to a portal's settings as a kind of the engine's work: a group, the organisation, an application. One unit
 * is one change to one thing; its intent keeps the values it replaces (read just before), so an update can be undone.
 * The API gives no way back for the rest (a group sent to trash, a deleted application, a rotated secret, anything
 * created), and the plan says so before anything is sent.
 */
import type { AccountUpdate, ApplicationDraft, ApplicationUpdate, GroupBody } from '../../api/index';
import type { JournalRecordOf, Unit } from '../job';

/** The fields of an application an update may set (never `rotateSecret`: that is a change of its own). */
export type ApplicationFields = Pick<ApplicationUpdate, 'name' | 'description'>;

export type SettingsChange =
  | { readonly resource: 'group'; readonly action: 'update'; readonly groupId: number; readonly body: GroupBody }
  | { readonly resource: 'group'; readonly action: 'create'; readonly body: GroupBody }
  | { readonly resource: 'group'; readonly action: 'delete'; readonly groupId: number }
  | { readonly resource: 'group'; readonly action: 'duplicate'; readonly groupId: number; readonly name: string }
  | { readonly resource: 'organisation'; readonly action: 'update'; readonly update: AccountUpdate }
  | {
      readonly resource: 'application';
      readonly action: 'update';
      readonly clientId: string;
      readonly update: ApplicationFields;
    }
  | { readonly resource: 'application'; readonly action: 'rotate-secret'; readonly clientId: string }
  | { readonly resource: 'application'; readonly action: 'create'; readonly draft: ApplicationDraft }
  | { readonly resource: 'application'; readonly action: 'delete'; readonly clientId: string };

export interface SettingsUnit extends Unit {
  readonly change: SettingsChange;
  /** What the change is about, in the user's words ("the group Engineering"): for the history and the report. */
  readonly label: string;
}

/** The values an update replaces, as the portal held them just before: what its undo sends back. */
export type SettingsBefore = Readonly<Record<string, unknown>>;

/** What the journal keeps of a request: the change sent (never a secret: the portal's answer is not journaled). */
export interface SettingsRequest {
  readonly sent: SettingsChange;
}

/** Where a settings run came from: a form's save, a single command, an undo. */
export type SettingsOrigin = 'form' | 'single' | 'undo';

export type SettingsRecord = JournalRecordOf<SettingsUnit, SettingsBefore, SettingsRequest, SettingsOrigin>;

/** Why a change has no undo, in words the plan shows before it is sent; undefined when it has one. */
export type NoUndoReason = 'group-deleted' | 'application-deleted' | 'secret-rotated' | 'created';

export function noUndoReason(change: SettingsChange): NoUndoReason | undefined {
  if (change.action === 'update') return undefined;
  if (change.action === 'rotate-secret') return 'secret-rotated';
  if (change.action === 'create' || change.action === 'duplicate') return 'created';
  return change.resource === 'group' ? 'group-deleted' : 'application-deleted';
}
