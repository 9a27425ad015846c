/**
 * Local data, the VS Code side: *Remove Local Data for This Portal…*, the same offer after the user signs out of a
 * portal or removes it, and at start the tightening of the storage folder's modes (files an older version made 0644)
 * and the pruning of what is older than `portal.history.keepDays`.
 *
 * It lives in the members feature because most of what it finds is that feature's (journals, reports, snapshots, the
 * access store); the uploads' journals and staged drops and chat's call log are found by their folders' names
 * (localFiles.ts), as features do not reach into one another's code.
 */
import * as vscode from 'vscode';
import type { PortalEntry } from '../../../auth/portalEntry';
import type { PortalRegistry } from '../../../auth/portalRegistry';
import { userValue } from '../../../auth/settings';
import { tightenTree } from '../../../node/privateFiles';
import { count } from '../../../shared/format';
import { plain } from '../../../shared/plainText';
import { portalFor } from '../../../targets/resolve';
import { registerCommand, type CommandEnv } from '../../../ui/commands';
import type { Ui } from '../../../ui/ui';
import { knownSnapshotFolder } from '../plan/applyRun';
import { localDataOf, pruneLocalData, removeLocalData, type LocalFile, type LocalKind } from './localFiles';

const DEFAULT_KEEP_DAYS = 90;

function kindWords(kind: LocalKind, n: number): string {
  switch (kind) {
    case 'journal':
      return n === 1 ? vscode.l10n.t('1 apply journal') : vscode.l10n.t('{0} apply journals', count(n));
    case 'report':
      return n === 1 ? vscode.l10n.t('1 action report') : vscode.l10n.t('{0} action reports', count(n));
    case 'access':
      return n === 1 ? vscode.l10n.t('1 access matrix store') : vscode.l10n.t('{0} access matrix stores', count(n));
    case 'snapshot':
      return n === 1 ? vscode.l10n.t('1 member snapshot') : vscode.l10n.t('{0} member snapshots', count(n));
    case 'upload':
      return n === 1 ? vscode.l10n.t('1 upload journal') : vscode.l10n.t('{0} upload journals', count(n));
    case 'invitation':
      return n === 1 ? vscode.l10n.t('1 invitation journal') : vscode.l10n.t('{0} invitation journals', count(n));
    case 'save':
      return n === 1 ? vscode.l10n.t('1 save-back journal') : vscode.l10n.t('{0} save-back journals', count(n));
    case 'dropped':
      return n === 1
        ? vscode.l10n.t('1 staged drop (files dropped for an upload)')
        : vscode.l10n.t('{0} staged drops (files dropped for uploads)', count(n));
    case 'chat':
      return vscode.l10n.t("chat's call log (the questions chat asked the portals)");
    case 'review':
      return n === 1
        ? vscode.l10n.t('1 access review file (decisions and evidence)')
        : vscode.l10n.t('{0} access review files (decisions and evidence)', count(n));
  }
}

const KINDS: readonly LocalKind[] = [
  'journal',
  'report',
  'access',
  'snapshot',
  'upload',
  'invitation',
  'save',
  'dropped',
  'chat',
  'review',
];

function wordsOf(files: readonly LocalFile[]): string {
  return KINDS.map((k) => [k, files.filter((f) => f.kind === k).length] as const)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => kindWords(k, n))
    .join(', ');
}

/**
 * "3 apply journals, 3 action reports, 1 member snapshot", then what is the extension's own rather than this portal's:
 * "; and, for every portal, not this one alone: chat's call log".
 */
export function localDataWords(files: readonly LocalFile[]): string {
  const mine = wordsOf(files.filter((f) => !f.shared));
  const shared = wordsOf(files.filter((f) => f.shared));
  if (!shared) return mine;
  return mine
    ? vscode.l10n.t('{0}; and, for every portal, not this one alone: {1}', mine, shared)
    : vscode.l10n.t('For every portal, not this one alone: {0}', shared);
}

interface LocalDataDeps {
  readonly registry: PortalRegistry;
  readonly storage: string;
  readonly memento: vscode.Memento;
}

async function filesOf(deps: LocalDataDeps, entry: PortalEntry): Promise<LocalFile[]> {
  return localDataOf(deps.storage, { portalId: entry.id, baseUrl: entry.baseUrl }, knownSnapshotFolder(deps.memento));
}

/** Asks (modal from the command, a notification after a sign-out) and removes; true when removed. */
async function offerRemoval(ui: Ui, deps: LocalDataDeps, entry: PortalEntry, modal: boolean): Promise<boolean> {
  const files = await filesOf(deps, entry);
  if (files.length === 0) {
    if (modal) ui.notify('info', vscode.l10n.t('Nothing is kept on this computer for {0}.', plain(entry.label)));
    return false;
  }
  const choice = await ui.choose({
    id: 'localData.remove',
    severity: 'warning',
    modal,
    message: vscode.l10n.t(
      'Remove what this computer keeps about the people of {0}? {1}.',
      plain(entry.label),
      localDataWords(files),
    ),
    detail: vscode.l10n.t(
      'Undo Last Apply and Resume need the journals; Re-create Member needs the snapshots. A running apply or upload is left alone.',
    ),
    actions: [{ id: 'remove', label: vscode.l10n.t('Remove {0} Files', count(files.length)) }],
  });
  if (choice !== 'remove') return false;
  const removed = await removeLocalData(files);
  ui.notify('info', vscode.l10n.t('Removed {0} files kept for {1}.', count(removed), plain(entry.label)));
  return true;
}

function keepDays(): number {
  // The user's value only, like every other setting: a cloned repository's settings must not prune the user's journals.
  const value = userValue<unknown>('portal', 'history.keepDays');
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : DEFAULT_KEEP_DAYS;
}

/** Tightens the storage folder's modes and prunes what is older than the setting: at start, not awaited. */
export async function tidyLocalData(storage: string, log: vscode.LogOutputChannel): Promise<void> {
  try {
    await tightenTree(storage);
    const pruned = await pruneLocalData(storage, keepDays(), Date.now());
    if (pruned > 0) log.info(`local data: pruned ${pruned} files older than ${keepDays()} days`);
  } catch (error) {
    log.warn(`local data: tidying the storage folder failed: ${String(error)}`);
  }
}

export function registerLocalData(env: CommandEnv, deps: LocalDataDeps): vscode.Disposable[] {
  return [
    registerCommand(env, 'portal.localData.remove', async (run) => {
      const ref = await portalFor(run, deps.registry, vscode.l10n.t('Remove the local data of which portal?'));
      const entry = deps.registry.get(ref.portalId)?.entry;
      if (entry) await offerRemoval(run.ui, deps, entry, true);
    }),
    deps.registry.onDidSignOutByUser((entry) => {
      offerRemoval(env.ui(), deps, entry, false).catch((error: unknown) =>
        env.log.warn(`local data: the offer after sign-out failed: ${String(error)}`),
      );
    }),
  ];
}
