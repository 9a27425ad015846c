/**
 * What the matrix page keeps for a reload, read back: checked as any message from the page, and its group and tag
 * found again by name in the stored reads. No VS Code here.
 */
import type { AccountRef } from '../../../shared/refs';
import { checkRestore, type MatrixRestore, type MatrixView } from './matrix.protocol';

/** The kept state as the page's host.ts wrote it ({ key, values }), checked; undefined when it is not ours. */
export function parseRestore(state: unknown): MatrixRestore | undefined {
  const values = typeof state === 'object' && state !== null ? (state as { values?: unknown }).values : undefined;
  const checked = checkRestore(values, '');
  return checked.ok ? checked.value : undefined;
}

/** The view with this session's indexes for the group and tag the page named. */
export function viewIn(
  restore: MatrixRestore,
  names: { columnOf(name: string): number | undefined; tags: readonly string[] },
): MatrixView {
  const { group: _group, tag: _tag, ...rest } = restore.view;
  const group = restore.groupName !== undefined ? names.columnOf(restore.groupName) : undefined;
  const tag = restore.tagName !== undefined ? names.tags.indexOf(restore.tagName) : -1;
  return { ...rest, ...(group !== undefined ? { group } : {}), ...(tag >= 0 ? { tag } : {}) };
}

/** The organisation the kept state names. */
export function accountOfRestore(restore: MatrixRestore): AccountRef {
  return { kind: 'account', portalId: restore.portalId, accountId: restore.accountId, label: restore.label };
}
