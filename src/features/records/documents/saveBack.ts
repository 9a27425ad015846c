/**
 * Saving an edited file record's content back: a new version through the replace-by-id upload (the only replace any
 * client was seen to use; see api/endpoints/uploads.ts), sent by the write engine (engine/saves), which stages the
 * bytes and journals the save, so the change history lists it. The portal's copy is read first and handed to a check
 * (baselines.ts compares it with what the editor was given): a copy that moved since is a conflict, never overwritten
 * in silence, and nothing is journaled. The portal offers no conditional write, so a change landing between that read
 * and the upload cannot be caught; the window is one request and two journal lines long. No VS Code here: the file
 * system maps the outcomes to VS Code's errors.
 */
import * as l10n from '@vscode/l10n';
import type { FileRecord, PortalClient } from '../../../api/index';
import { runSave } from '../../../engine/saves/index';
import { findRecord } from './recordRead';
import type { PortalTarget } from './uri';

/** What the editor was last given of a record: its version as the portal said it. */
export interface Seen {
  readonly lastModified: number | null;
  readonly versions: number | null;
}

export function seenOf(r: Pick<FileRecord, 'lastModified' | 'versions'>): Seen {
  return { lastModified: r.lastModified, versions: r.versions };
}

/** The portal's copy changed since the editor read it. */
export class SaveConflict extends Error {
  override readonly name = 'SaveConflict';
  constructor(readonly current: FileRecord) {
    super(l10n.t('{0} changed on the portal since it was opened. Save again to compare or overwrite.', current.name));
  }
}

/** The portal's copy could not be read, so it cannot be checked: nothing is sent. */
export class SaveUnchecked extends Error {
  override readonly name = 'SaveUnchecked';
  constructor(name: string) {
    super(l10n.t('{0} was not saved: the portal did not show its current version to compare with.', name));
  }
}

/** "Engineering/q1-docs": the record's group and folder path, as the Explorer named them. */
function whereOf(t: Extract<PortalTarget, { kind: 'content' }>, record: FileRecord): string {
  const group =
    t.known?.groupLabel ?? (record.group?.friendlyName || record.group?.name) ?? l10n.t('group {0}', t.groupId);
  const where = [group, ...(t.known?.folders ?? []).map((f) => f.name)].join('/');
  return oneLine(where, 500);
}

/** Text for the journal's one bounded line: portal names are not always tidy. */
function oneLine(text: string, max: number): string {
  return text.replace(/\p{Cc}/gu, ' ').slice(0, max);
}

/**
 * Sends `bytes` as a new version of the record through the write engine (staged, journaled, listed in the change
 * history), unless `check` (given the portal's copy as it is now) throws, as it does with a SaveConflict. The new
 * record, as the portal then holds it. A failed upload throws the portal's own error, as a direct call would.
 */
export async function saveBack(
  client: PortalClient,
  t: Extract<PortalTarget, { kind: 'content' }>,
  check: (current: FileRecord) => Promise<void>,
  bytes: Uint8Array,
  storage: string,
  signal?: AbortSignal,
): Promise<FileRecord> {
  const { record, source } = await findRecord(client, t);
  if (source === 'row') throw new SaveUnchecked(record.name);
  await check(record);
  const where = whereOf(t, record);
  const saved = await runSave(
    client,
    storage,
    {
      portalId: t.portalId,
      accountId: t.accountId,
      groupId: t.groupId,
      where,
      title: l10n.t('Save {0} back to {1}', oneLine(record.name, 255), where),
      record,
      before: seenOf(record),
    },
    bytes,
    signal,
  );
  if (saved.outcome?.result !== 'done')
    throw saved.error ?? new Error(saved.outcome?.message || l10n.t('{0} was not saved.', record.name));
  // The complete call's answer is not observed to be the record; read it back when it is not.
  const uploaded = saved.answer;
  if (uploaded && uploaded.id === record.id && uploaded.lastModified !== null) return uploaded;
  return (await findRecord(client, t)).record;
}
