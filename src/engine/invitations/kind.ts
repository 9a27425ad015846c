/**
 * Invitations as a kind of the engine's work. A unit's intent is durable before its request, its outcome after. A
 * resume asks the portal first: an address with an invitation pending now is not invited again (the plan left out
 * every address pending when it was made, so a pending one now is this run's, sent before the interruption).
 */
import * as l10n from '@vscode/l10n';
import { isPortalError, type NotOfferedReason } from '../../api/index';
import { errorMessage } from '../../shared/errors';
import type { IntentEntry, UnitContext, UnitOutcome, UndoOffer, WorkKind } from '../job';
import {
  addressKey,
  pendingAddresses,
  type InviteBefore,
  type InviteClient,
  type InviteRecord,
  type InviteRequest,
  type InviteUnit,
} from './model';

type Context = UnitContext<InviteBefore, InviteRequest>;

/** Why nothing can be sent, in the words a plan or a report says it once. */
export function notOfferedText(reason: NotOfferedReason): string {
  return reason === 'absent'
    ? l10n.t('This portal does not offer invitations: nothing was sent.')
    : l10n.t('Your sign-in may not create invitations in this organisation (INVITES_CREATE): nothing was sent.');
}

/** What Undo would say: there is no observed way to withdraw an invitation. */
export function noInviteUndoText(): string {
  return l10n.t('The API has no way to withdraw an invitation: sending one cannot be undone.');
}

function failed(e: unknown): UnitOutcome {
  const kind = isPortalError(e) ? e.kind : 'unexpected';
  const o: UnitOutcome = { result: 'failed', message: errorMessage(e), kind };
  return kind === 'cancelled' ? { ...o, unconfirmed: true } : o;
}

export class InviteKind implements WorkKind<InviteUnit, InviteBefore, InviteRequest, never> {
  readonly name = 'invitations';
  /** The pending addresses, read once by the first unit a resume finds started. */
  private pending: Promise<Set<string>> | undefined;
  /** Why the portal refused the endpoint itself: every later unit would meet it too, so none is sent. */
  private refused: string | undefined;

  constructor(
    private readonly client: InviteClient,
    private readonly accountId: number,
  ) {}

  async run(unit: InviteUnit, context: Context): Promise<UnitOutcome> {
    await context.journal.append({
      type: 'intent',
      seq: unit.seq,
      before: null,
      requests: [{ targetName: unit.email }],
    });
    return this.send(unit, context);
  }

  async resume(
    unit: InviteUnit,
    intent: IntentEntry<InviteBefore, InviteRequest> | undefined,
    context: Context,
  ): Promise<UnitOutcome> {
    if (!intent) return this.run(unit, context);
    try {
      if ((await this.pendingNow(context)).has(addressKey(unit.email)))
        return this.finish(unit, { result: 'done', message: l10n.t('Sent before the interruption.') }, context);
    } catch (e) {
      return this.finish(unit, failed(e), context);
    }
    return this.send(unit, context);
  }

  undo(_record: InviteRecord): UndoOffer<never> {
    return { notOffered: noInviteUndoText() };
  }

  private pendingNow(context: Context): Promise<Set<string>> {
    this.pending ??= (async () => {
      context.countRequest();
      const read = await this.client.observed.invitations(this.accountId);
      if (read.kind === 'not-offered') throw new Error(notOfferedText(read.reason));
      return pendingAddresses(read.value);
    })();
    return this.pending;
  }

  private async send(unit: InviteUnit, context: Context): Promise<UnitOutcome> {
    if (this.refused) return this.finish(unit, { result: 'failed', message: this.refused }, context);
    try {
      context.countRequest();
      const answer = await this.client.observed.invite(this.accountId, {
        targetName: unit.email,
        mask: unit.mask,
        groups: unit.groups,
      });
      if (answer.kind === 'not-offered') {
        this.refused = notOfferedText(answer.reason);
        return this.finish(unit, { result: 'failed', message: this.refused }, context);
      }
      return this.finish(unit, { result: 'done', message: '' }, context);
    } catch (e) {
      if (isPortalError(e) && e.kind === 'conflict')
        return this.finish(unit, { result: 'skipped', message: errorMessage(e) }, context);
      return this.finish(unit, failed(e), context);
    }
  }

  private async finish(unit: InviteUnit, o: UnitOutcome, context: Context): Promise<UnitOutcome> {
    if (!o.unconfirmed)
      await context.journal.append({ type: 'outcome', seq: unit.seq, result: o.result, message: o.message });
    return o;
  }
}
