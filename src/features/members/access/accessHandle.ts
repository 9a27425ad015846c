/**
 * The access store as other features may use it (contracts.ts): what a matrix holds now, what a fresh answer would
 * cost within the request budget, and a read the caller has already asked the user about. The store stays the one
 * the access matrix panels use, so a read here fills their journal too, and the other way round.
 */
import type { PortalRegistry } from '../../../auth/portalRegistry';
import { setting } from '../../../auth/settings';
import { MAX_PAGE_SIZE, type PortalClient } from '../../../api/index';
import type { AccountRef } from '../../../shared/refs';
import type { Ui } from '../../../ui/ui';
import type { AccessCost, AccessHandle, BudgetEstimate } from '../../contracts';
import { estimateMs } from './store/estimate';
import type { MatrixSessions } from './store/matrixSessions';
import { durationWords } from './matrix.protocol';
import { outsidersMessage, placedShares } from './outsiders/outsiders';

const HOUR_MS = 3_600_000;
/** Until a read has answered, an estimate assumes this much time per request (as the matrix's own read does). */
const FIRST_GUESS_LATENCY_MS = 150;

/** The same Ui, except that the read's own "this takes long" question is answered yes: the caller asked already. */
function alreadyAsked(ui: Ui): Ui {
  return Object.create(ui, { confirm: { value: () => Promise.resolve(true) } }) as Ui;
}

export function accessHandle(sessions: MatrixSessions, registry: PortalRegistry, ui: () => Ui): AccessHandle {
  return {
    view: (account) => sessions.get(account).matrix,
    cost: (account, needGroups) => costOf(sessions, registry, account, needGroups),
    estimate: (account, requests) => estimateOf(registry, account, requests),
    outsiders: async (account, signal) => {
      const session = sessions.get(account);
      await session.readOutsiders(signal);
      const { rows, note } = outsidersMessage(session.matrix.outsiders, session.matrix.signIns);
      return { rows, note };
    },
    placedOutsiders: async (account, signal) => {
      const session = sessions.get(account);
      await session.readOutsiders(signal);
      const record = session.matrix.outsiders;
      if (!record) throw new Error(session.progress().message || 'The guests and invitations could not be read.');
      const { shares, elsewhere } = placedShares(record);
      const labels = new Map(record.groups.map((g) => [String(g.id), g.label]));
      return {
        at: record.at,
        shares: typeof record.shares === 'string' ? record.shares : shares,
        invitations: record.invitations,
        elsewhere,
        groupLabel: (id) => labels.get(id) ?? id,
      };
    },
    refresh: async (account, signal) => {
      const session = sessions.get(account);
      const onAbort = () => session.cancel();
      signal.addEventListener('abort', onAbort, { once: true });
      try {
        const result = await session.read(() => alreadyAsked(ui()));
        return result?.outcome ?? 'cancelled';
      } finally {
        signal.removeEventListener('abort', onAbort);
      }
    },
  };
}

/** The first page's total; a portal that answers the whole list at once gives none, and its rows are the count. */
async function memberCount(client: PortalClient, accountId: number): Promise<number> {
  const first = await client.v3.members.page(accountId, { page: 1, size: 1 });
  return first.totalResults ?? first.items.length;
}

async function costOf(
  sessions: MatrixSessions,
  registry: PortalRegistry,
  account: AccountRef,
  needGroups: boolean,
): Promise<AccessCost> {
  const matrix = sessions.get(account).matrix;
  const client = registry.client(account.portalId);
  const cutoff = Date.now() - setting('accessMatrix.maxAgeHours') * HOUR_MS;
  const listFresh = matrix.listedAt >= cutoff && matrix.listLimit === undefined;
  // A list never walked: the first page's total says how many members there are (one small request).
  const total = listFresh || matrix.size > 0 ? matrix.size : await memberCount(client, account.accountId);
  const pages = listFresh ? 0 : Math.ceil(total / MAX_PAGE_SIZE);
  const unread = needGroups ? matrix.staleRows(cutoff).length + Math.max(0, total - matrix.size) : 0;
  return { reads: unread, pages, ...estimateOf(registry, account, unread + pages) };
}

/** `requests` within the portal's budget as it is used now, at the concurrency the settings allow. */
function estimateOf(registry: PortalRegistry, account: AccountRef, requests: number): BudgetEstimate {
  const b = registry.client(account.portalId).budget;
  const etaMs = estimateMs(
    requests,
    { limit: b.limit, windowMs: b.windowMs, used: b.used() },
    FIRST_GUESS_LATENCY_MS,
    setting('maxConcurrentRequests'),
  );
  return { etaMs, etaWords: durationWords(etaMs), limit: b.limit, windowMs: b.windowMs };
}
