/**
 * Settings changes as a kind of the engine's work. A unit's intent (the values it replaces) is durable before its
 * request, its outcome after. A resume asks the portal: an update that landed is not sent again; a create or a
 * delete is looked for first; a secret rotation whose answer was lost is never sent again, since a second rotation
 * would invalidate the secret the first one showed nobody.
 */
import * as l10n from '@vscode/l10n';
import { isPortalError } from '../../api/index';
import { errorMessage } from '../../shared/errors';
import type { IntentEntry, UnitContext, UnitOutcome, UndoOffer, WorkKind } from '../job';
import {
  noUndoReason,
  type SettingsBefore,
  type SettingsRecord,
  type SettingsRequest,
  type SettingsUnit,
} from './model';
import { holds, readBefore, send, type SettingsAnswer, type SettingsClient } from './portal';

type Context = UnitContext<SettingsBefore, SettingsRequest>;

function failed(e: unknown): UnitOutcome {
  const kind = isPortalError(e) ? e.kind : 'unexpected';
  const o: UnitOutcome = { result: 'failed', message: errorMessage(e), kind };
  return kind === 'cancelled' ? { ...o, unconfirmed: true } : o;
}

/** The units that put a finished run's updates back, each from the values it replaced. */
export function undoUnits(record: SettingsRecord): SettingsUnit[] {
  const units: SettingsUnit[] = [];
  for (const unit of record.begin.work) {
    const before = record.intents.get(unit.seq)?.before;
    if (record.outcomes.get(unit.seq)?.result !== 'done' || !before) continue;
    const c = unit.change;
    const seq = units.length;
    if (c.resource === 'group' && c.action === 'update')
      units.push({ seq, label: unit.label, change: { ...c, body: before } });
    else if (c.resource === 'organisation') units.push({ seq, label: unit.label, change: { ...c, update: before } });
    else if (c.resource === 'application' && c.action === 'update')
      units.push({ seq, label: unit.label, change: { ...c, update: before } });
  }
  return units;
}

/** The undo a finished run offers: its updates put back, or why there is none. */
export function settingsUndo(record: SettingsRecord): UndoOffer<SettingsUnit[]> {
  const units = undoUnits(record);
  if (units.length > 0) return { plan: units };
  const reason = record.begin.work.map((u) => noUndoReason(u.change)).find((r) => r !== undefined);
  return { notOffered: reason ? noUndoWords(reason) : l10n.t('The change left nothing to undo.') };
}

export class SettingsKind implements WorkKind<SettingsUnit, SettingsBefore, SettingsRequest, SettingsUnit[]> {
  readonly name = 'settings';
  /** The portal's answers by unit, for the caller: a new application's secret lives here, never in the journal. */
  readonly answers = new Map<number, SettingsAnswer>();
  /** The error each failed unit met, for a caller that shows it as a direct call would (a form marks the field). */
  readonly errors = new Map<number, unknown>();

  constructor(
    private readonly client: SettingsClient,
    private readonly accountId: number,
  ) {}

  async run(unit: SettingsUnit, context: Context): Promise<UnitOutcome> {
    let before: SettingsBefore | null;
    try {
      if (unit.change.action === 'update') context.countRequest();
      before = await readBefore(this.client, this.accountId, unit.change);
    } catch (e) {
      this.errors.set(unit.seq, e);
      return this.finish(unit, failed(e), context);
    }
    await context.journal.append({ type: 'intent', seq: unit.seq, before, requests: [{ sent: unit.change }] });
    return this.send(unit, context);
  }

  async resume(
    unit: SettingsUnit,
    intent: IntentEntry<SettingsBefore, SettingsRequest> | undefined,
    context: Context,
  ): Promise<UnitOutcome> {
    if (!intent) return this.run(unit, context);
    // Only an update can be told to have landed (the portal holds its values) and is safe to send again; anything
    // else may have happened before the interruption, so it is reported, never sent a second time.
    if (unit.change.action !== 'update')
      return this.finish(
        unit,
        {
          result: 'failed',
          message:
            unit.change.action === 'rotate-secret'
              ? l10n.t(
                  'The secret may have been rotated before the interruption; it is not rotated again. Rotate it again if the application no longer signs in.',
                )
              : l10n.t(
                  'This may have reached the portal before the interruption; it is not sent again. Check the portal.',
                ),
        },
        context,
      );
    try {
      context.countRequest();
      if (await holds(this.client, this.accountId, unit.change))
        return this.finish(unit, { result: 'done', message: l10n.t('Saved before the interruption.') }, context);
    } catch (e) {
      return this.finish(unit, failed(e), context);
    }
    return this.send(unit, context);
  }

  undo(record: SettingsRecord): UndoOffer<SettingsUnit[]> {
    return settingsUndo(record);
  }

  private async send(unit: SettingsUnit, context: Context): Promise<UnitOutcome> {
    try {
      context.countRequest();
      this.answers.set(unit.seq, await send(this.client, this.accountId, unit.change));
      return await this.finish(unit, { result: 'done', message: '' }, context);
    } catch (e) {
      this.errors.set(unit.seq, e);
      return this.finish(unit, failed(e), context);
    }
  }

  private async finish(unit: SettingsUnit, o: UnitOutcome, context: Context): Promise<UnitOutcome> {
    if (!o.unconfirmed)
      await context.journal.append({ type: 'outcome', seq: unit.seq, result: o.result, message: o.message });
    return o;
  }
}

/** Why a change cannot be undone, said before it is sent. */
export function noUndoWords(reason: NonNullable<ReturnType<typeof noUndoReason>>): string {
  switch (reason) {
    case 'group-deleted':
      return l10n.t(
        'The group goes to the portal’s trash, and the API offers no way to restore it: this cannot be undone.',
      );
    case 'application-deleted':
      return l10n.t('A deleted application cannot be restored: this cannot be undone.');
    case 'secret-rotated':
      return l10n.t('The old secret stops working at once and cannot be restored: this cannot be undone.');
    case 'created':
      return l10n.t('Undo does not delete what was created: delete it yourself if it should go.');
  }
}
