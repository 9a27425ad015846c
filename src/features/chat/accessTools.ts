/**
 * The tools that answer from the access store: who can reach a group, one member's access, and members found by
 * state, inactivity, group or tag. A fresh store answers with no request. What is missing or stale is read first,
 * within the request budget; when that would take longer than a few seconds, the call asks first, saying how long
 * and why.
 */
import * as vscode from 'vscode';
import type { Member, MemberV2, PortalClient } from '../../api/index';
import { setting } from '../../auth/settings';
import { levelCode, ROW, type AccessRow } from '../../shared/accessRow';
import { count } from '../../shared/format';
import { memberRow } from '../../shared/members';
import { flagsOf, MEMBER_STATES, type MemberState } from '../../shared/memberStates';
import { LEVEL_WORDS, type LevelWord } from '../../shared/permissions';
import type { AccessHandle, AccessView } from '../contracts';
import { findMembers, memberAccess, outsidersOfGroup, quoted, whoCanAccess } from './answers';
import { CONFIRM_ABOVE_MS, windowMinutes } from './longRead';
import type { Target } from './target';
import { defineTool, optionalCount, optionalFlag, optionalString, requiredString, type ToolEnv } from './toolKit';

const HOUR_MS = 3_600_000;

function oneOf<T extends string>(values: readonly T[], v: string | undefined): T | undefined {
  return values.find((x) => x.toLowerCase() === v?.toLowerCase());
}

/** The confirmation before a long read, or undefined when the store can answer soon. */
async function askBeforeLongRead(
  store: AccessHandle,
  target: Target,
  needGroups: boolean,
  what: string,
): Promise<vscode.PreparedToolInvocation> {
  const cost = await store.cost(target.account, needGroups);
  if (cost.etaMs <= CONFIRM_ABOVE_MS) return { invocationMessage: what };
  return {
    invocationMessage: what,
    confirmationMessages: {
      title: vscode.l10n.t('Read the access of {0}?', target.accountName),
      message: new vscode.MarkdownString(
        vscode.l10n.t(
          'Answering needs {0} member reads and {1} list pages from the portal, {2}: the portal tells a member\u2019s groups only one member at a time, and allows {3} requests every {4} minutes. What is read is kept for the access matrix and later questions.',
          count(cost.reads),
          count(cost.pages),
          cost.etaWords,
          count(cost.limit),
          windowMinutes(cost),
        ),
      ),
    },
  };
}

/** Reads what the answer needs that the store lacks; true when something was read now. */
async function freshen(
  store: AccessHandle,
  target: Target,
  needGroups: boolean,
  signal: AbortSignal,
): Promise<boolean> {
  const cost = await store.cost(target.account, needGroups);
  if (cost.reads + cost.pages === 0) return false;
  const outcome = await store.refresh(target.account, signal);
  if (outcome !== 'done') throw new vscode.CancellationError();
  return true;
}

/** The v2 group names of a group the model named by its friendly name (one group list request, only then). */
async function groupNameOf(client: PortalClient, accountId: number, view: AccessView, named: string): Promise<string> {
  if (view.columnOf(named) !== undefined) return named;
  const lower = named.toLowerCase();
  const groups = await client.v2.groups.list(accountId);
  return groups.find((g) => g.friendlyName.toLowerCase() === lower || String(g.id) === named)?.name ?? named;
}

interface GroupInput {
  readonly group: string;
  readonly level: LevelWord | undefined;
  readonly offset: number | undefined;
}

export function whoCanAccessTool(env: ToolEnv, store: AccessHandle): vscode.LanguageModelTool<object> {
  return defineTool<GroupInput>(env, {
    name: 'portal_whoCanAccessGroup',
    input: (o) => ({
      group: requiredString(o, 'group'),
      level: oneOf(LEVEL_WORDS, optionalString(o, 'level')),
      offset: optionalCount(o, 'offset'),
    }),
    prepare: (input, target) =>
      askBeforeLongRead(store, target, true, vscode.l10n.t('Reading who can reach {0}…', quoted(input.group))),
    run: async (input, target, signal) => {
      const readNow = await freshen(store, target, true, signal);
      const view = store.view(target.account);
      const name = await groupNameOf(target.client, target.account.accountId, view, input.group);
      const answer = whoCanAccess(view, name, { offset: input.offset, level: input.level });
      const outsiders = await store.outsiders(target.account, signal);
      const others = outsidersOfGroup(outsiders.rows, name, outsiders.note, input.offset);
      return {
        outcome: 'answered',
        answer: answer
          ? { ...answer, ...others, readNow }
          : {
              group: quoted(input.group),
              members: null,
              readNow,
              reason: 'No member of this organisation is in a group of this name.',
            },
      };
    },
  });
}

interface MemberInput {
  readonly username: string;
}

/** One member as a one-row store, read now: their v3 row and their v2 groups (two requests). */
function oneMemberView(m: Member, v2: MemberV2, at: number): AccessView {
  const r = memberRow(m);
  const columns = Object.keys(v2.groups ?? {});
  const cells = columns.flatMap((name, i) => {
    const level = levelCode(v2.groups?.[name] ?? 0);
    return level > 0 ? [i, level] : [];
  });
  const row: AccessRow = [
    0,
    r.username,
    r.name,
    '',
    r.tags.map((_, i) => i),
    r.permission ?? 0,
    r.lastActive ?? -1,
    flagsOf(r),
    cells,
    at,
  ];
  return { columns, tags: r.tags, listedAt: 0, size: 1, all: () => [row], row: () => row, columnOf: () => undefined };
}

export function memberAccessTool(env: ToolEnv, store: AccessHandle): vscode.LanguageModelTool<object> {
  return defineTool<MemberInput>(env, {
    name: 'portal_memberAccess',
    input: (o) => ({ username: requiredString(o, 'username') }),
    run: async (input, target, signal) => {
      const view = store.view(target.account);
      const cutoff = Date.now() - setting('accessMatrix.maxAgeHours') * HOUR_MS;
      const kept = view.row(input.username);
      if (kept && kept[ROW.readAt] >= cutoff) {
        return { outcome: 'answered', answer: { member: memberAccess(view, input.username), readNow: false } };
      }
      const { accountId } = target.account;
      const [m, v2] = await Promise.all([
        target.client.v3.members.get(accountId, input.username, { signal }),
        target.client.v2.members.get(accountId, input.username, { signal }),
      ]);
      return {
        outcome: 'answered',
        answer: { member: memberAccess(oneMemberView(m, v2, Date.now()), m.user.username), readNow: true },
      };
    },
  });
}

interface FindInput {
  readonly state: MemberState | undefined;
  readonly inactiveDays: number | undefined;
  readonly group: string | undefined;
  readonly tag: string | undefined;
  readonly includeNotStarted: true | undefined;
  readonly offset: number | undefined;
}

/** What the answer says of the members an activity filter left out as not started yet, when it left some out. */
function notStartedNote(leftOut: number): string | undefined {
  if (leftOut === 0) return undefined;
  const who = leftOut === 1 ? '1 more member matched but has' : `${leftOut} more members matched but have`;
  return `${who} not started yet (never active, activation e-mail still to come): left out, as the access matrix leaves them out. Ask again with includeNotStarted: true to count them.`;
}

export function findMembersTool(env: ToolEnv, store: AccessHandle): vscode.LanguageModelTool<object> {
  return defineTool<FindInput>(env, {
    name: 'portal_findMembers',
    input: (o) => ({
      state: oneOf(MEMBER_STATES, optionalString(o, 'state')),
      inactiveDays: optionalCount(o, 'inactiveDays'),
      group: optionalString(o, 'group'),
      tag: optionalString(o, 'tag'),
      includeNotStarted: optionalFlag(o, 'includeNotStarted'),
      offset: optionalCount(o, 'offset'),
    }),
    prepare: (input, target) =>
      askBeforeLongRead(
        store,
        target,
        input.group !== undefined,
        vscode.l10n.t('Finding members of {0}…', target.accountName),
      ),
    run: async (input, target, signal) => {
      const readNow = await freshen(store, target, input.group !== undefined, signal);
      const view = store.view(target.account);
      const group =
        input.group === undefined
          ? undefined
          : await groupNameOf(target.client, target.account.accountId, view, input.group);
      const filter = {
        state: input.state,
        inactiveDays: input.inactiveDays,
        group,
        tag: input.tag,
        includeNotStarted: input.includeNotStarted,
      };
      const found = findMembers(view, filter, { offset: input.offset, now: Date.now() });
      const note = notStartedNote(found?.notStartedLeftOut ?? 0);
      const asked = Object.fromEntries(
        Object.entries(filter)
          .filter(([, v]) => v !== undefined)
          .map(([k, v]) => [k, typeof v === 'string' ? quoted(v) : v]),
      );
      return {
        outcome: 'answered',
        answer: found
          ? { filter: asked, members: found, readNow, ...(note !== undefined ? { note } : {}) }
          : { filter: asked, members: null, readNow, reason: 'No member of this organisation has this group or tag.' },
      };
    },
  });
}
