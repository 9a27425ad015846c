/**
 * Undo for any member change made from VS Code, in the user's words: *Undo Last Change…*, the Undo button of every
 * write's summary, and *Show Change History…*, where an older change can be undone after a look at its plan. An
 * undo is a plan of its own, shown in the Plan view before anything is sent, and it records which change it
 * reverses, so that change is never offered again.
 */
import * as vscode from 'vscode';
import { changeHistory, remainingUndoPlan, type PastChange } from '../../../engine/members/index';
import { changedWords, membersWord, undoneWords, undoTitle } from './changeNames';
import { listToolCalls, type ToolCall } from '../../../engine/readLog';
import { count, shortDate } from '../../../shared/format';
import { plain } from '../../../shared/plainText';
import type { AccountRef } from '../../../shared/refs';
import type { SettingsWriter } from '../../../ui/settingsWriter';
import { answered, type Ui } from '../../../ui/ui';
import type { PastSettingsChange } from '../../../engine/settings/index';
import { interruptedWords, saveHistory, saveNoUndoWords, type PastSave } from '../../../engine/saves/index';
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
      return n === 1 ? vscode.l10n.t('Bulk edit of 1 member') : vscode.l10n.t('Bulk edit of {0} members', count(n));
    case 'undo':
      return n === 1 ? vscode.l10n.t('Undo for 1 member') : vscode.l10n.t('Undo of {0} members', count(n));
    case 'form':
    case 'single':
      return vscode.l10n.t('Change to {0}', record.begin.work[0]?.username ?? '');
    default:
      return n === 1
        ? vscode.l10n.t('Changes to 1 member from a file')
        : vscode.l10n.t('Changes to {0} members from a file', count(n));
  }
}

/** The change in the user's words: "Disable 27 members" (10:59). */
export function changeName(record: JournalRecord): string {
  return vscode.l10n.t('"{0}" ({1})', plain(record.begin.title ?? originWords(record)), when(record.begin.startedAt));
}

/** The change's name without its time, for an undo's own title (the history adds the undo's time). */
function changeLabel(record: JournalRecord): string {
  return vscode.l10n.t('"{0}"', plain(record.begin.title ?? originWords(record)));
}

export function accountOfRecord(deps: ApplyDeps, record: JournalRecord): AccountRef {
  const { portalId, accountId, accountLabel } = record.begin;
  // The window's own label first (the organisation may have been renamed since); then the one the change was made in.
  const label = deps.store.labelOf(portalId, accountId) ?? accountLabel ?? vscode.l10n.t('organisation {0}', accountId);
  return { kind: 'account', portalId, accountId, label };
}

/** Members of the change an undo has not put back yet. */
function membersLeft(past: PastChange): string[] {
  const done = new Set(past.undoneMembers.map((m) => m.toLowerCase()));
  return past.members.filter((m) => !done.has(m.toLowerCase()));
}

/**
 * The undo's plan in the Plan view, named for the change it reverses: of every member not put back yet, or of those
 * chosen.
 */
async function showUndo(deps: ApplyDeps, past: PastChange, chosen?: readonly string[]) {
  const left = membersLeft(past);
  const who = chosen ?? left;
  const title = undoTitle(
    changeLabel(past.record),
    who.map((m) => plain(m)),
    left.length,
  );
  const plan = { ...remainingUndoPlan(past, who), title };
  const shown = deps.store.show(plan, accountOfRecord(deps, past.record), undefined);
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
  await applyShown(ui, deps, await showUndo(deps, past));
}

/** Why a member change is not offered for undo, in words; undefined when it is. */
function whyNot(c: PastChange): string | undefined {
  if (c.undoable) return undefined;
  if (c.record.begin.origin === 'undo') return vscode.l10n.t('an undo itself');
  if (c.record.unfinished) return vscode.l10n.t('interrupted: Resume Interrupted Apply… resumes or undoes it');
  if (c.record.end?.discarded) return vscode.l10n.t('left unfinished');
  if (c.undone) return vscode.l10n.t('undone already');
  return vscode.l10n.t('nothing in it can be put back');
}

/** Why a settings change is not offered for undo, in words; undefined when it is. */
function whyNotSettings(c: PastSettingsChange): string | undefined {
  if (c.undoable) return undefined;
  if (c.record.begin.origin === 'undo') return vscode.l10n.t('an undo itself');
  if (c.record.unfinished) return vscode.l10n.t('interrupted');
  if (c.undone) return vscode.l10n.t('undone already');
  return vscode.l10n.t('the portal offers no way back');
}

type Candidate =
  | { readonly at: number; readonly name: string; readonly why: string | undefined; readonly member: PastChange }
  | { readonly at: number; readonly name: string; readonly why: string | undefined; readonly settings: string }
  | { readonly at: number; readonly name: string; readonly why: string; readonly save: PastSave };

/** A file record's content saved back: "Save report.txt back to Engineering/q1-docs" (10:59). */
function saveName(c: PastSave): string {
  return vscode.l10n.t('"{0}" ({1})', plain(c.record.begin.title ?? ''), when(c.record.begin.startedAt));
}

/** Why a save is not offered for undo: it never is. */
function whyNotSave(c: PastSave): string {
  return c.state === 'saved'
    ? vscode.l10n.t('a saved version cannot be undone')
    : c.state === 'interrupted'
      ? vscode.l10n.t('interrupted, not sent again')
      : vscode.l10n.t('failed, nothing saved');
}

/** Every change made from VS Code, members and settings alike, newest first, with why it cannot be undone. */
async function candidates(storage: string, settings: SettingsWriter): Promise<Candidate[]> {
  const [members, others, saves] = await Promise.all([
    changeHistory(storage),
    settings.history(),
    saveHistory(storage),
  ]);
  const all: Candidate[] = [
    ...members.map((c) => ({ at: c.record.begin.startedAt, name: changeName(c.record), why: whyNot(c), member: c })),
    ...others.map((c) => ({
      at: c.record.begin.startedAt,
      name: vscode.l10n.t('"{0}" ({1})', plain(c.record.begin.title ?? ''), when(c.record.begin.startedAt)),
      why: whyNotSettings(c),
      settings: c.record.applyId,
    })),
    ...saves.map((c) => ({ at: c.record.begin.startedAt, name: saveName(c), why: whyNotSave(c), save: c })),
  ];
  return all.sort((a, b) => b.at - a.at);
}

/** Newer changes Undo Last goes past, at most this many named. */
const PAST_NAMED = 10;

/**
 * Undo Last Change…: the newest change that can be undone, named in a question before its undo plan opens. It never
 * goes past a newer change without saying so: the question names each one it skips and why.
 */
export async function undoLast(ui: Ui, deps: ApplyDeps, settings: SettingsWriter): Promise<void> {
  const all = await candidates(deps.storage, settings);
  const index = all.findIndex((c) => c.why === undefined);
  const skipped = (index < 0 ? all : all.slice(0, index)).map((c) => vscode.l10n.t('{0}: {1}', c.name, c.why ?? ''));
  const target = all[index];
  if (!target || 'save' in target) {
    ui.notify(
      'info',
      skipped.length
        ? vscode.l10n.t('No change can be undone. {0}', skipped.slice(0, PAST_NAMED).join('; '))
        : vscode.l10n.t('There is no change to undo.'),
    );
    return;
  }
  const past = skipped.length
    ? [
        skipped.length === 1
          ? vscode.l10n.t('It is not the newest change: 1 newer change cannot be undone.')
          : vscode.l10n.t('It is not the newest change: {0} newer changes cannot be undone.', count(skipped.length)),
        ...skipped.slice(0, PAST_NAMED),
        ...(skipped.length > PAST_NAMED ? [vscode.l10n.t('and {0} more', count(skipped.length - PAST_NAMED))] : []),
      ]
    : [];
  const left = 'member' in target ? membersLeft(target.member) : [];
  const yes = await ui.confirm({
    id: 'plan.undoLast.confirm',
    message: vscode.l10n.t('Undo {0}?', target.name),
    detail: [
      ...past,
      ...('member' in target
        ? [
            left.length > 1
              ? vscode.l10n.t(
                  'Its undo puts {0} back; the plan is shown before anything is sent.',
                  membersWord(left.length),
                )
              : vscode.l10n.t('Its undo plan is shown before anything is sent.'),
          ]
        : []),
    ].join('\n'),
    action: 'member' in target ? vscode.l10n.t('Show Undo Plan') : vscode.l10n.t('Continue…'),
  });
  if (!yes) return;
  if ('settings' in target) {
    await settings.undo(ui, target.settings);
    return;
  }
  await showUndo(deps, target.member);
  ui.notify('info', vscode.l10n.t('Undo {0} is in the Plan view: Apply puts the members back.', target.name));
}

function historyItem(c: PastChange) {
  const done = [...c.record.outcomes.values()].filter((o) => o.result === 'done').length;
  const state =
    c.undoneMembers.length > 0
      ? undoneWords(c.undoneMembers.length, c.members.length)
      : c.undone
        ? vscode.l10n.t('undone')
        : c.record.unfinished
          ? vscode.l10n.t('interrupted')
          : changedWords(done);
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

/** A file record's content saved back: never undone, so its state says why. */
function saveItem(c: PastSave) {
  return { label: saveName(c), description: whyNotSave(c), value: { save: c } };
}

/** What a save's row says when chosen: why there is no undo. */
function saveNotUndone(c: PastSave): string {
  if (c.state === 'saved') return saveNoUndoWords();
  if (c.state === 'interrupted') return interruptedWords();
  return vscode.l10n.t('{0} failed, so nothing was saved and there is nothing to undo: {1}', saveName(c), c.message);
}

/** The history newest first: the changes made from VS Code and the questions chat asked, by time. */
async function historyItems(storage: string, settings: SettingsWriter) {
  const [changes, reads, others, saves] = await Promise.all([
    changeHistory(storage),
    listToolCalls(storage),
    settings.history(),
    saveHistory(storage),
  ]);
  const items = [
    ...changes.map((c) => ({ at: c.record.begin.startedAt, item: historyItem(c) })),
    ...others.map((c) => ({ at: c.record.begin.startedAt, item: settingsItem(c) })),
    ...saves.map((c) => ({ at: c.record.begin.startedAt, item: saveItem(c) })),
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
    await ui.pick<PastChange | { read: ToolCall } | { settings: PastSettingsChange } | { save: PastSave }>(items, {
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
  if ('save' in picked) {
    ui.notify('info', saveNotUndone(picked.save));
    return;
  }
  if ('read' in picked) {
    ui.notify('info', vscode.l10n.t('A question from chat reads and changes nothing: there is nothing to undo.'));
    return;
  }
  if (!picked.undoable) {
    ui.notify('info', vscode.l10n.t('{0} cannot be undone: {1}.', changeName(picked.record), whyNot(picked) ?? ''));
    return;
  }
  await showUndo(deps, picked, await whoToPutBack(ui, picked));
}

/** Of a change with several members left to put back, whose; every one of them unless the user unticks some. */
async function whoToPutBack(ui: Ui, past: PastChange): Promise<string[]> {
  const left = membersLeft(past);
  if (left.length < 2) return left;
  const chosen = answered(
    await ui.pickMany(
      left.map((m) => ({ label: plain(m), picked: true, value: m })),
      {
        id: 'plan.history.members',
        title: vscode.l10n.t('Undo {0}', changeName(past.record)),
        placeHolder: vscode.l10n.t('Whose changes should the undo put back?'),
      },
    ),
  );
  if (chosen.length === 0) answered(undefined);
  return chosen;
}
