/**
 * Undo for any member change made from VS Code, in the user's words: *Undo Last Change…*, the Undo button of every
 * write's summary, and *Show Change History…*, where an older change can be undone after a look at its plan. An
 * undo is a plan of its own, shown in the Plan view before anything is sent, and it records which change it
 * reverses, so that change is never offered again.
 */
import * as vscode from 'vscode';
import { changeHistory, undoPlan, type PastChange } from '../../../engine/members/index';
import { listToolCalls, type ToolCall } from '../../../engine/readLog';
import { count, shortDate } from '../../../shared/format';
import { plain } from '../../../shared/plainText';
import type { AccountRef } from '../../../shared/refs';
import type { SettingsWriter } from '../../../ui/settingsWriter';
import { answered, type Ui } from '../../../ui/ui';
import type { PastSettingsChange } from '../../../engine/settings/index';
import { applyShown, type ApplyDeps } from './applyRun';
import type { JournalRecord } from './core/model';
import { PLAN_VIEW } from './planView';

/** "10:59" today, the date and time before. */
function when(ms: number, now = Date.now()): string {
  const full = shortDate(ms);
  return full.slice(0, 10) === shortDate(now).slice(0, 10) ? full.slice(11) : full;
}

/** What the run was, when it has no title of its own (journals written before titles). */
function originWords(record: JournalRecord): string {
  const n = record.begin.work.length;
  switch (record.begin.origin) {
    case 'bulk':
      return vscode.l10n.t('Bulk edit of {0} members', count(n));
    case 'undo':
      return vscode.l10n.t('Undo of {0} members', count(n));
    case 'form':
    case 'single':
      return vscode.l10n.t('Change to {0}', record.begin.work[0]?.username ?? '');
    default:
      return vscode.l10n.t('Changes to {0} members from a file', count(n));
  }
}

/** The change in the user's words: "Disable 27 members" (10:59). */
export function changeName(record: JournalRecord): string {
  return vscode.l10n.t('"{0}" ({1})', plain(record.begin.title ?? originWords(record)), when(record.begin.startedAt));
}

export function accountOfRecord(deps: ApplyDeps, record: JournalRecord): AccountRef {
  const { portalId, accountId } = record.begin;
  const label = deps.store.labelOf(portalId, accountId) ?? vscode.l10n.t('organisation {0}', accountId);
  return { kind: 'account', portalId, accountId, label };
}

/** The undo's plan in the Plan view, named for the change it reverses. */
async function showUndo(deps: ApplyDeps, record: JournalRecord) {
  const title = vscode.l10n.t('Undo {0}', changeName(record));
  const shown = deps.store.show({ ...undoPlan(record), title }, accountOfRecord(deps, record), undefined);
  await vscode.commands.executeCommand(`${PLAN_VIEW}.focus`);
  return shown;
}

/** A summary's Undo button: the change's undo plan is shown, then applied after the usual confirmation. */
export async function undoChange(ui: Ui, deps: ApplyDeps, applyId: string): Promise<void> {
  const past = (await changeHistory(deps.storage)).find((c) => c.record.applyId === applyId);
  if (!past?.undoable) {
    ui.notify('info', vscode.l10n.t('That change has been undone already, or left nothing to undo.'));
    return;
  }
  await applyShown(ui, deps, await showUndo(deps, past.record));
}

/** Undo Last Change…: the newest change not undone yet, its undo plan shown; Apply puts the members back. */
export async function undoLast(ui: Ui, deps: ApplyDeps): Promise<void> {
  const last = (await changeHistory(deps.storage)).find((c) => c.undoable);
  if (!last) {
    ui.notify('info', vscode.l10n.t('There is no change to undo.'));
    return;
  }
  await showUndo(deps, last.record);
  ui.notify(
    'info',
    vscode.l10n.t('Undo {0} is in the Plan view: Apply puts the members back.', changeName(last.record)),
  );
}

function historyItem(c: PastChange) {
  const done = [...c.record.outcomes.values()].filter((o) => o.result === 'done').length;
  const state = c.undone
    ? vscode.l10n.t('undone')
    : c.record.unfinished
      ? vscode.l10n.t('interrupted')
      : vscode.l10n.t('{0} members changed', count(done));
  return { label: changeName(c.record), description: state, value: c };
}

/** A question chat asked: listed with the changes, as a read that changed nothing (its answer is not kept). */
function readItem(call: ToolCall) {
  const where = [call.organisation, call.portal]
    .filter((w): w is string => !!w)
    .map((w) => plain(w))
    .join(' · ');
  return {
    label: vscode.l10n.t('Chat asked {0} ({1})', plain(call.tool), when(call.at)),
    description: where
      ? vscode.l10n.t('a read, changed nothing · {0}', where)
      : vscode.l10n.t('a read, changed nothing'),
    value: { read: call },
  };
}

/** A change to a group, the organisation or an application, with whether it can be undone. */
function settingsItem(c: PastSettingsChange) {
  const state = c.undone
    ? vscode.l10n.t('undone')
    : c.record.unfinished
      ? vscode.l10n.t('interrupted')
      : c.undoable
        ? vscode.l10n.t('can be undone')
        : vscode.l10n.t('cannot be undone');
  const label = vscode.l10n.t('"{0}" ({1})', plain(c.record.begin.title ?? ''), when(c.record.begin.startedAt));
  return { label, description: state, value: { settings: c } };
}

/** The history newest first: the changes made from VS Code and the questions chat asked, by time. */
async function historyItems(storage: string, settings: SettingsWriter) {
  const [changes, reads, others] = await Promise.all([
    changeHistory(storage),
    listToolCalls(storage),
    settings.history(),
  ]);
  const items = [
    ...changes.map((c) => ({ at: c.record.begin.startedAt, item: historyItem(c) })),
    ...others.map((c) => ({ at: c.record.begin.startedAt, item: settingsItem(c) })),
    ...reads.map((r) => ({ at: r.at, item: readItem(r) })),
  ];
  return items.sort((a, b) => b.at - a.at).map((i) => i.item);
}

/** Show Change History…: past changes (and chat's questions), newest first; choosing a change shows its undo plan. */
export async function showHistory(ui: Ui, deps: ApplyDeps, settings: SettingsWriter): Promise<void> {
  const items = await historyItems(deps.storage, settings);
  if (items.length === 0) {
    ui.notify('info', vscode.l10n.t('No member change has been made from VS Code yet.'));
    return;
  }
  const picked = answered(
    await ui.pick<PastChange | { read: ToolCall } | { settings: PastSettingsChange }>(items, {
      id: 'plan.history.pick',
      title: vscode.l10n.t('Changes made from VS Code, and chat’s questions'),
      placeHolder: vscode.l10n.t('Choose a change to see its undo'),
      matchOnDescription: true,
    }),
  );
  if ('settings' in picked) {
    await settings.undo(ui, picked.settings.record.applyId);
    return;
  }
  if ('read' in picked) {
    ui.notify('info', vscode.l10n.t('A question from chat reads and changes nothing: there is nothing to undo.'));
    return;
  }
  if (!picked.undoable) {
    ui.notify(
      'info',
      vscode.l10n.t('{0} cannot be undone: it was undone already, or is an undo itself.', changeName(picked.record)),
    );
    return;
  }
  await showUndo(deps, picked.record);
}
