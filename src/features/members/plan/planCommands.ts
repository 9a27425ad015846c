/**
 * The commands of "membership as code": Plan Changes…, Apply Plan…, Discard Plan, Retry Failed, Undo Last Change…,
 * Show Change History…,
 * Resume Interrupted Apply… and Re-create Member from Snapshot…. Each plan (from a file, an undo, a retry or a
 * snapshot) is shown in the Plan view first; only Apply sends anything.
 */
import type { SettingsWriter } from '../../../ui/settingsWriter';
import * as vscode from 'vscode';
import { count, fullDate } from '../../../shared/format';
import { plain } from '../../../shared/plainText';
import type { AccountRef } from '../../../shared/refs';
import { accountFor } from '../../../targets/resolve';
import { registerCommand, type CommandEnv, type Run } from '../../../ui/commands';
import { answered, type Ui } from '../../../ui/ui';
import { discardJournal, undoPlan, unfinishedJournals } from '../../../engine/members/index';
import { accountOfRecord, showHistory, undoLast } from './changeHistory';
import { allChanges, type AbsentChoice, type FilePlan, type PortalGroup, type PortalState } from './core/model';
import { fileDigestInSlices } from './core/planner';
import { readPortalState } from './core/portalState';
import { readInWorker, type FileInWorker } from './core/worker/planInWorker';
import { listSnapshots, missingGroups, recreatePlan } from '../../../engine/members/snapshot';
import { recreateTarget } from './recreateTarget';
import { applyShown, knownSnapshotFolder, resumeRecord, retryLast, snapshotFolder, type ApplyDeps } from './applyRun';
import { isMembersDocument, nextTurn, parseOptions } from './editor/membersDocument';
import type { ShownPlan } from './planStore';
import { PLAN_VIEW } from './planView';
import { cancellableProgress } from '../../../ui/cancellableProgress';

async function showPlan(
  deps: ApplyDeps,
  plan: FilePlan,
  account: AccountRef,
  file: vscode.Uri | undefined,
): Promise<void> {
  deps.store.show(plan, account, file);
  await vscode.commands.executeCommand(`${PLAN_VIEW}.focus`);
}

/** The members file the command is about: the active editor's. */
function activeMembersDocument(ui: Ui): vscode.TextDocument | undefined {
  const doc = vscode.window.activeTextEditor?.document;
  if (doc && isMembersDocument(doc)) return doc;
  ui.notify(
    'error',
    vscode.l10n.t(
      'Open a portal members file first: a .csv file whose header has a "username" column, such as one Export Members to CSV wrote.',
    ),
  );
  return undefined;
}

async function askAbsent(ui: Ui, n: number, account: AccountRef): Promise<AbsentChoice> {
  return answered(
    await ui.pick<AbsentChoice>(
      [
        { label: vscode.l10n.t('Leave them alone'), description: vscode.l10n.t('recommended'), value: 'leave' },
        {
          label: vscode.l10n.t('Disable them'),
          detail: vscode.l10n.t('Members on the portal but not in the file are disabled.'),
          value: 'disable',
        },
        {
          label: vscode.l10n.t('Remove them from the organisation'),
          detail: vscode.l10n.t('A member of no other organisation is deleted for good; a snapshot is kept first.'),
          value: 'remove',
        },
      ],
      {
        id: 'plan.absent',
        title:
          n === 1
            ? vscode.l10n.t('1 member of {0} is not in the file', plain(account.label))
            : vscode.l10n.t('{0} members of {1} are not in the file', count(n), plain(account.label)),
        placeHolder: vscode.l10n.t('Members on the portal but not in the file: what should the plan do?'),
      },
    ),
  );
}

async function planFromFile(run: Run, deps: ApplyDeps): Promise<void> {
  const doc = activeMembersDocument(run.ui);
  if (!doc) return;
  // Read and planned by a worker, whatever the file's size: a large file never holds the editor while it is planned,
  // and what reading it took is freed when the worker ends.
  const version = doc.version;
  const file = await readInWorker(doc.getText(), parseOptions());
  try {
    await planRead(run, deps, doc, file);
  } finally {
    await file.close();
  }
  // The file changed while the portal was read: the plan is of a text the editor no longer holds.
  if (doc.version !== version) deps.store.markStale(doc.uri);
}

/** Reads the portal for the file the worker holds, plans, shows the plan and says what was left out. */
async function planRead(run: Run, deps: ApplyDeps, doc: vscode.TextDocument, file: FileInWorker): Promise<void> {
  const account = deps.store.accountOf(doc.uri) ?? (await accountFor(run, deps.registry));
  await deps.store.rememberAccount(doc.uri, account);
  const client = deps.registry.client(account.portalId);
  const state = await cancellableProgress(
    run.ui,
    'plan.read',
    vscode.l10n.t('Reading the members of {0}…', plain(account.label)),
    (progress, signal) =>
      readPortalState(client, account.accountId, file.needs, {
        signal,
        onProgress: (p) =>
          progress.report({
            message:
              p.total === undefined
                ? vscode.l10n.t('{0} members', count(p.members))
                : vscode.l10n.t('{0} of {1} members', count(p.members), count(p.total)),
          }),
      }),
  );
  deps.store.setState(doc.uri, account, state);
  const me = deps.registry.get(account.portalId)?.username?.toLowerCase();
  // Planned with every absent member removed, so the question is asked only when there are some; the answer then
  // keeps, turns or drops those changes here, without planning the file again.
  const options = { absent: 'remove' as const, fileDigest: file.read.digest, ...(me ? { keep: new Set([me]) } : {}) };
  const { plan: whole } = await file.plan(state, options);
  const absentOnes = whole.absent.filter((c) => c.kind === 'absent').length;
  const choice = absentOnes > 0 ? await askAbsent(run.ui, absentOnes, account) : 'leave';
  const naming = { kind: 'file' as const, source: await sourceName(doc.uri) };
  const plan = { ...withAbsentChoice(whole, state, choice), naming };
  await showPlan(deps, plan, account, doc.uri);
  const skipped = plan.skipped?.length ?? 0;
  if (skipped > 0)
    run.ui.notify(
      'warning',
      vscode.l10n.t(
        'Rows not planned: {0} of {1}. Each is listed in the Plan view with its problem; fix them and plan again.',
        count(skipped),
        count(file.read.rows),
      ),
    );
  else if (allChanges(plan).length === 0)
    run.ui.notify('info', vscode.l10n.t('{0} already matches the file: nothing to change.', plain(account.label)));
}

/**
 * The plan with what the user chose for members not in the file: removed (as planned), disabled (those enabled), or
 * left alone.
 */
function withAbsentChoice(plan: FilePlan, state: PortalState, choice: AbsentChoice): FilePlan {
  if (choice === 'remove') return plan;
  const absent = plan.absent.filter((c) => c.kind === 'absent');
  const gone = new Set(absent.map((c) => c.id));
  const before = new Map(plan.before);
  const kept =
    choice === 'disable'
      ? absent
          .filter((c) => state.members.get(c.username.toLowerCase())?.enabled === true)
          .map((c) => ({ ...c, action: 'disable' as const, permanent: false }))
      : [];
  const keptKeys = new Set(kept.map((c) => c.username.toLowerCase()));
  for (const c of absent) if (!keptKeys.has(c.username.toLowerCase())) before.delete(c.username.toLowerCase());
  return {
    ...plan,
    absent: [...plan.absent.filter((c) => !gone.has(c.id)), ...kept],
    permanentDeletions: plan.permanentDeletions.filter((id) => !gone.has(id)),
    before,
  };
}

/**
 * What the history names a file's changes after: the file, or the sheet a members file was imported from (the
 * import writes `<sheet>.members.csv` beside it).
 */
async function sourceName(file: vscode.Uri): Promise<string> {
  const name = file.path.split('/').pop() ?? '';
  const stem = /^(.*)\.members\.csv$/i.exec(name)?.[1];
  if (!stem) return name;
  for (const ext of ['xlsx', 'csv']) {
    const sheet = vscode.Uri.joinPath(file, '..', `${stem}.${ext}`);
    try {
      await vscode.workspace.fs.stat(sheet);
      return `${stem}.${ext}`;
    } catch {
      // Not this one.
    }
  }
  return name;
}

/** The digest of a file's text now: the open document's, else the file on disk's; undefined when it is gone. */
async function digestNow(file: vscode.Uri): Promise<string | undefined> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === file.toString());
  if (open) return fileDigestInSlices(open.getText(), nextTurn);
  try {
    return await fileDigestInSlices(new TextDecoder().decode(await vscode.workspace.fs.readFile(file)), nextTurn);
  } catch {
    return undefined;
  }
}

/** Whether the plan on show is still of the file's text; says so and refuses when it is not. */
async function planIsCurrent(ui: Ui, deps: ApplyDeps, shown: ShownPlan): Promise<boolean> {
  const source = shown.plan.source;
  if (!shown.file || !source?.fileDigest) return true;
  if (!shown.stale && (await digestNow(shown.file)) === source.fileDigest) return true;
  deps.store.markStale(shown.file);
  ui.notify(
    'error',
    vscode.l10n.t(
      'The file changed after this plan was made, so the plan is out of date: nothing was applied. Run Plan Changes… again.',
    ),
  );
  return false;
}

/**
 * Offers what to do with an apply that stopped before its end. At start-up it is a notification nobody has to
 * answer; from the command it is asked outright.
 */
export async function offerResume(
  ui: Ui,
  deps: ApplyDeps,
  modal: boolean,
  onAsked: (message: string | undefined) => void = () => undefined,
): Promise<void> {
  const [record] = await unfinishedJournals(deps.storage);
  if (!record) {
    onAsked(undefined);
    if (modal) ui.notify('info', vscode.l10n.t('No apply was interrupted: there is nothing to resume.'));
    return;
  }
  const account = accountOfRecord(deps, record);
  const done = record.outcomes.size;
  const message = vscode.l10n.t(
    'An apply to {0} stopped before it finished (started {1}; {2} of {3} members done). Resume it, or undo what it did?',
    plain(account.label),
    fullDate(record.begin.startedAt),
    count(done),
    count(record.begin.work.length),
  );
  const asked = ui.choose({
    id: 'plan.interrupted',
    severity: 'warning',
    modal,
    message,
    actions: [
      { id: 'resume', label: vscode.l10n.t('Resume') },
      { id: 'undo', label: vscode.l10n.t('Undo') },
      { id: 'discard', label: vscode.l10n.t('Leave It') },
    ],
  });
  onAsked(message);
  const choice = await asked;
  // A notification may be answered long after it was shown: by then the run may have been resumed another way.
  if (choice && !(await unfinishedJournals(deps.storage)).some((r) => r.applyId === record.applyId)) {
    ui.notify('info', vscode.l10n.t('That apply has been finished or undone already.'));
    return;
  }
  if (choice === 'resume') await resumeRecord(ui, deps, record, account);
  else if (choice === 'undo') await showPlan(deps, undoPlan(record), account, undefined);
  else if (choice === 'discard') await discardJournal(record);
  else if (modal) answered(undefined);
}

async function groupsOf(deps: ApplyDeps, account: AccountRef): Promise<PortalGroup[]> {
  const groups = await deps.registry.client(account.portalId).v2.groups.list(account.accountId);
  return groups.map((g) => ({ id: g.id, name: g.name, friendlyName: g.friendlyName }));
}

async function recreateMember(run: Run, deps: ApplyDeps): Promise<void> {
  const ui = run.ui;
  const folder = knownSnapshotFolder(deps.memento) ?? answered(await snapshotFolder(ui, deps.memento, true));
  const snapshots = await listSnapshots(folder);
  if (snapshots.length === 0) {
    ui.notify('info', vscode.l10n.t('There are no member snapshots in {0}.', plain(folder)));
    return;
  }
  const picked = answered(
    await ui.pick(
      snapshots.map((s) => ({
        label: plain(s.snapshot.username),
        description: vscode.l10n.t(
          '{0}, organisation {1}, kept {2}',
          plain(s.snapshot.name),
          s.snapshot.accountId,
          fullDate(s.snapshot.takenAt),
        ),
        detail: plain(s.file),
        value: s,
      })),
      {
        id: 'plan.recreate.pick',
        title: vscode.l10n.t('Snapshots in {0}', plain(folder)),
        placeHolder: vscode.l10n.t('Which member should be re-created (everything but the password)?'),
        matchOnDescription: true,
      },
    ),
  );
  const account = await recreateTarget(run, deps, picked.snapshot);
  const groups = await groupsOf(deps, account);
  await showPlan(deps, recreatePlan(picked.snapshot, groups, Date.now(), account.accountId), account, undefined);
  const missing = missingGroups(picked.snapshot, groups);
  if (missing.length > 0)
    ui.notify(
      'warning',
      vscode.l10n.t(
        '{0} has no group named {1}: the re-created member is not put in it.',
        plain(account.label),
        missing.map((n) => plain(n)).join(', '),
      ),
    );
}

export function registerPlanCommands(env: CommandEnv, deps: ApplyDeps, settings: SettingsWriter): vscode.Disposable[] {
  const shown = (ui: Ui) => {
    const plan = deps.store.plan;
    if (!plan) ui.notify('info', vscode.l10n.t('There is no plan: run Plan Changes… on a members file first.'));
    return plan;
  };
  return [
    registerCommand(env, 'portal.plan.planChanges', (run) => planFromFile(run, deps)),
    registerCommand(env, 'portal.plan.apply', async (run) => {
      const plan = shown(run.ui);
      if (plan && (await planIsCurrent(run.ui, deps, plan))) await applyShown(run.ui, deps, plan);
    }),
    registerCommand(env, 'portal.plan.discard', () => deps.store.clear()),
    registerCommand(env, 'portal.plan.retryFailed', (run) => retryLast(run.ui, deps)),
    registerCommand(env, 'portal.plan.undoLastApply', (run) => undoLast(run.ui, deps, settings)),
    registerCommand(env, 'portal.plan.showHistory', (run) => showHistory(run.ui, deps, settings)),
    registerCommand(env, 'portal.plan.resume', (run) => offerResume(run.ui, deps, true)),
    registerCommand(env, 'portal.plan.recreateMember', (run) => recreateMember(run, deps)),
  ];
}
