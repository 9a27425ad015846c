/**
 * The host's side of the worker that reads and plans a members file (planWorker.ts): the text goes to the worker,
 * which answers what the file needs read from the portal; the host reads the portal with its client and sends what
 * it read; the worker plans, and the plan comes back in parts while it is made, each a few milliseconds to take in,
 * then the rest of it. The host never parses the file itself, so its event loop is never held by it, and it keeps
 * only the plan. Rows given as data (chat's proposals) go to the same worker instead of a text, and are planned by
 * the same messages.
 */
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ParseOptions } from '../file/membersFile';
import type { PlanOptions } from '../planner';
import type { StateNeeds } from '../portalState';
import type { GroupLevel, FilePlan, MembersFile, PortalMember, PortalState, Problem } from '../model';
import type { FileRead, FromWorker, ToWorker } from './protocol';

/** A plan the worker made, and the problems of the file's own that it holds none of (see Planning.fileProblems). */
export interface PlanMade {
  readonly plan: FilePlan;
  readonly problems: readonly Problem[];
}

/** A members file read by a worker, which keeps it until the plan is made. */
export interface FileInWorker {
  readonly read: FileRead;
  /** What reading the portal needs to know of the file (see readPortalState). */
  readonly needs: StateNeeds;
  plan(state: PortalState, options: PlanOptions): Promise<PlanMade>;
  /** Ends the worker (and frees what it held); a plan not yet made is refused. */
  close(): Promise<void>;
}

/**
 * The worker: the bundle's `planWorker.js` beside the extension's; from the sources (the tests and benchmarks run
 * them through tsx), the TypeScript entry with tsx registered first.
 */
function startWorker(): Worker {
  if (!__filename.endsWith('.ts')) return new Worker(join(__dirname, 'planWorker.js'));
  const source = join(__dirname, 'planWorker.ts');
  return new Worker(`require('tsx/cjs'); require(${JSON.stringify(source)});`, { eval: true });
}

type NewChange = FilePlan['newMembers'][number];

const NO_TAGS: readonly string[] = Object.freeze([]);
const NO_LEVELS: ReadonlyMap<number, GroupLevel> = new Map();

/**
 * A new member's change built again as the planner builds it: a message's copy of an object keeps its fields partly
 * out of line, each object of its own, and copies what the planner shares (an empty tag list, an empty map of
 * groups, the username twice, the kind's word). A file of new members holds a great many of them, so the copy just
 * read, which nothing else holds, is made compact again. The worker's test compares the plan field for field.
 */
function compactNew(change: NewChange): NewChange {
  if (change.kind !== 'create') return change;
  const m = change.member;
  return {
    kind: 'create',
    id: change.id,
    username: change.username,
    row: change.row,
    member: {
      username: change.username,
      name: m.name,
      email: m.email,
      jobTitle: m.jobTitle,
      enabled: m.enabled,
      locked: m.locked,
      accountPermission: m.accountPermission,
      tags: m.tags.length ? m.tags : NO_TAGS,
      groups: m.groups.size ? m.groups : NO_LEVELS,
      activationDate: m.activationDate,
    },
  };
}

type Waiting = { resolve(message: FromWorker): void; reject(error: Error): void };

/** One question at a time to the worker; the plan's parts gathered until its last message. */
class Conversation {
  private waiting: Waiting | undefined;
  private failed: Error | undefined;
  private readonly parts = new Map<string, unknown[]>();
  private readonly maps = new Map<string, Map<string, unknown>>();

  constructor(private readonly worker: Worker) {
    worker.on('message', (message: FromWorker) => this.take(message));
    worker.on('error', (error) => this.fail(error));
    worker.on('exit', (code) => this.fail(new Error(`The members file's worker stopped (${code}).`)));
  }

  private take(message: FromWorker): void {
    if (message.type === 'part') {
      const items = this.parts.get(message.key) ?? [];
      for (const item of message.items) items.push(message.key === 'newMembers' ? compactNew(item as NewChange) : item);
      this.parts.set(message.key, items);
      this.worker.postMessage({ type: 'more' } satisfies ToWorker);
    } else if (message.type === 'mapPart') {
      const map = this.maps.get(message.key) ?? new Map<string, unknown>();
      for (const [k, v] of message.entries) map.set(k, v);
      this.maps.set(message.key, map);
      this.worker.postMessage({ type: 'more' } satisfies ToWorker);
    } else if (message.type === 'error') this.fail(new Error(message.message));
    else {
      const waiting = this.waiting;
      this.waiting = undefined;
      waiting?.resolve(message);
    }
  }

  private fail(error: Error): void {
    this.failed ??= error;
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.reject(error);
  }

  ask(message: ToWorker): Promise<FromWorker> {
    if (this.failed) return Promise.reject(this.failed);
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.worker.postMessage(message);
    });
  }

  /** The plan from its last message and the parts before it: a section's parts come first, then what it holds. */
  planOf(rest: Partial<FilePlan>): FilePlan {
    const plan: Record<string, unknown> = { ...rest };
    for (const [key, items] of this.parts) {
      const tail: unknown = plan[key];
      if (Array.isArray(tail))
        for (const item of tail) items.push(key === 'newMembers' ? compactNew(item as NewChange) : item);
      plan[key] = items;
    }
    for (const [key, map] of this.maps) plan[key] = map;
    this.parts.clear();
    this.maps.clear();
    return plan as unknown as FilePlan;
  }
}

function expect<T extends FromWorker['type']>(message: FromWorker, type: T): Extract<FromWorker, { type: T }> {
  if (message.type !== type) throw new Error(`The members file's worker answered ${message.type}, not ${type}.`);
  return message as Extract<FromWorker, { type: T }>;
}

/** Reads `text` as a members file in a worker. The caller closes it once planned (or given up). */
export function readInWorker(text: string, options: ParseOptions): Promise<FileInWorker> {
  return inWorker({ type: 'read', text, options });
}

/** Hands rows given as data (membersFileOfRows) to a worker, to be planned as a file's are; the caller closes it. */
export function rowsInWorker(file: MembersFile): Promise<FileInWorker> {
  return inWorker({ type: 'rows', file });
}

async function inWorker(first: Extract<ToWorker, { type: 'read' | 'rows' }>): Promise<FileInWorker> {
  const worker = startWorker();
  const talk = new Conversation(worker);
  try {
    const { rows, digest, hasGroupColumns, readsGroups } = expect(await talk.ask(first), 'read');
    const read: FileRead = { rows, digest, hasGroupColumns, readsGroups };
    return {
      read,
      needs: {
        hasGroupColumns: read.hasGroupColumns,
        groupReads: async (members: ReadonlyMap<string, PortalMember>) =>
          read.readsGroups ? expect(await talk.ask({ type: 'groupReads', members }), 'groupReads').usernames : [],
      },
      plan: async (state, planOptions) => {
        const { rest, problems } = expect(await talk.ask({ type: 'plan', state, options: planOptions }), 'plan');
        return { plan: talk.planOf(rest), problems };
      },
      close: async () => void (await worker.terminate()),
    };
  } catch (error) {
    void worker.terminate();
    throw error;
  }
}
