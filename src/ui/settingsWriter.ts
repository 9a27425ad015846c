/**
 * Every change to a portal's settings (a group, the organisation, an application) goes through the write engine:
 * journaled with the values it replaces, listed in the change history, and offered for undo from its summary where
 * the API allows. Where it does not (a secret rotated, a group sent to trash, an application deleted, something
 * created), the callers' confirmation says so before anything is sent (`noUndoText`).
 */
import * as vscode from 'vscode';
import {
  noUndoReason,
  noUndoWords,
  runSettings,
  settingsHistory,
  settingsUndo,
  type PastSettingsChange,
  type SettingsAnswer,
  type SettingsChange,
  type SettingsClient,
  type SettingsRecord,
} from '../engine/settings/index';
import { plain } from '../shared/plainText';
import type { Ui } from './ui';
import { offerUndo } from './undoOffer';

export interface SettingsTarget {
  readonly portalId: string;
  /** 0 for the signed-in user's own applications. */
  readonly accountId: number;
}

/** Why the change cannot be undone, for a confirmation to say before it is sent; undefined when it can. */
export function noUndoText(change: SettingsChange): string | undefined {
  const reason = noUndoReason(change);
  return reason ? noUndoWords(reason) : undefined;
}

/** "friendlyName: Social Club → Social": what the field holds now, and what the undo puts back. */
function fieldLine(key: string, now: unknown, back: unknown): string {
  const show = (v: unknown) => plain(typeof v === 'string' ? v : JSON.stringify(v ?? null));
  return vscode.l10n.t('{0}: {1} → {2}', key, show(now), show(back));
}

/** What an undo sends, as lines "field: now → back to". */
function undoLines(record: SettingsRecord): string[] {
  const lines: string[] = [];
  for (const unit of record.begin.work) {
    const before = record.intents.get(unit.seq)?.before;
    if (!before) continue;
    const c = unit.change;
    if (c.action !== 'update') continue;
    const sent: Record<string, unknown> = c.resource === 'group' ? { ...c.body } : { ...c.update };
    for (const key of Object.keys(before)) lines.push(fieldLine(key, sent[key], before[key]));
  }
  return lines;
}

export class SettingsWriter {
  constructor(
    private readonly storage: string,
    private readonly clientOf: (portalId: string) => SettingsClient,
  ) {}

  /**
   * Sends one change through the engine and returns the portal's answer with the run's id; a failure is thrown as the
   * portal's own error, as a direct call would, so a form marks the field it names. `client` sends it with other
   * credentials than the portal's signed-in ones (a sign-in's own, before or after they are the portal's).
   */
  async write(
    target: SettingsTarget,
    change: SettingsChange,
    words: { readonly label: string; readonly title: string },
    origin: 'form' | 'single' = 'form',
    client: SettingsClient = this.clientOf(target.portalId),
  ): Promise<{ readonly answer: SettingsAnswer; readonly applyId: string }> {
    const result = await runSettings(client, [{ seq: 0, label: words.label, change }], {
      storageFolder: this.storage,
      portalId: target.portalId,
      accountId: target.accountId,
      origin,
      title: words.title,
    });
    const outcome = result.outcomes.get(0);
    if (outcome?.result !== 'done') throw result.errors.get(0) ?? new Error(outcome?.message ?? words.title);
    return { answer: result.answers.get(0), applyId: result.applyId };
  }

  /** The change's summary, with Undo when it can be undone. Not awaited by callers: a toast settles when it closes. */
  summary(ui: Ui, applyId: string, change: SettingsChange, message: string): Promise<void> {
    const undo = noUndoReason(change) ? undefined : async (u: Ui, id: string) => void (await this.undo(u, id));
    return offerUndo(ui, 'settings.change.done', undo, applyId, 'info', message);
  }

  history(): Promise<PastSettingsChange[]> {
    return settingsHistory(this.storage);
  }

  /** Shows what the undo sends back, and sends it once confirmed. */
  async undo(ui: Ui, applyId: string): Promise<boolean> {
    const past = (await this.history()).find((c) => c.record.applyId === applyId);
    const offer = past ? settingsUndo(past.record) : undefined;
    if (!past?.undoable || !offer || !('plan' in offer)) {
      ui.notify(
        'info',
        offer && 'notOffered' in offer
          ? offer.notOffered
          : vscode.l10n.t('That change has been undone already, or left nothing to undo.'),
      );
      return false;
    }
    const title = plain(past.record.begin.title ?? '');
    const ok = await ui.confirm({
      id: 'settings.undo.confirm',
      message: vscode.l10n.t('Undo "{0}"?', title),
      detail: undoLines(past.record).join('\n'),
      action: vscode.l10n.t('Undo'),
    });
    if (!ok) return false;
    const { portalId, accountId } = past.record.begin;
    const result = await runSettings(this.clientOf(portalId), offer.plan, {
      storageFolder: this.storage,
      portalId,
      accountId,
      origin: 'undo',
      title: vscode.l10n.t('Undo {0}', past.record.begin.title ?? ''),
      undoOf: applyId,
    });
    const failed = [...result.outcomes.values()].find((o) => o.result !== 'done');
    if (failed) throw result.errors.values().next().value ?? new Error(failed.message);
    ui.notify('info', vscode.l10n.t('Undone: "{0}".', title));
    return true;
  }
}
