/**
 * The worker that reads and plans a members file, off the extension host's event loop: a file of tens of megabytes
 * takes seconds to parse and plan and hundreds of megabytes while it is done. Here the host's editor stays
 * responsive, and what the reading needed is freed when the worker ends; the host keeps only the plan.
 *
 * The portal is read by the host (the client, its sign-in and its request budget live there): the worker says what
 * the file needs read, and plans once the host sends what it read. See planInWorker.ts for the host's side.
 */
import { parentPort } from 'node:worker_threads';
import { desiredRows } from '../file/desiredRows';
import { parseMembersFile } from '../file/membersFile';
import { fileDigest, makePlan } from '../planner';
import { groupReadsNeeded, mayReadGroups } from '../file/groupReads';
import { PART_ITEMS, type FromWorker, type PlanArrayKey, type PlanMapKey, type ToWorker } from './protocol';
import type { MembersFile, FilePlan } from '../model';

const port = parentPort;

function send(message: FromWorker): void {
  port?.postMessage(message);
}

/** The plan as messages: each long section in parts, then the rest. */
function planMessages(plan: FilePlan): FromWorker[] {
  const out: FromWorker[] = [];
  const rest: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(plan)) {
    if (Array.isArray(value) && value.length > PART_ITEMS) {
      for (let at = 0; at < value.length; at += PART_ITEMS)
        out.push({ type: 'part', key: key as PlanArrayKey, items: value.slice(at, at + PART_ITEMS) });
      rest[key] = [];
    } else if (value instanceof Map && value.size > PART_ITEMS) {
      const entries = [...(value as Map<string, unknown>)];
      for (let at = 0; at < entries.length; at += PART_ITEMS)
        out.push({ type: 'mapPart', key: key as PlanMapKey, entries: entries.slice(at, at + PART_ITEMS) });
      rest[key] = new Map();
    } else rest[key] = value;
  }
  out.push({ type: 'plan', rest: rest as Partial<FilePlan> });
  return out;
}

/** The plan's messages not sent yet: the next goes when the host asks for more. */
let unsent: FromWorker[] = [];

function sendNext(): void {
  const next = unsent.shift();
  if (next) send(next);
}

let file: MembersFile | undefined;

function handle(message: ToWorker): void {
  if (message.type === 'read') {
    file = parseMembersFile(message.text, message.options);
    desiredRows(file);
    send({
      type: 'read',
      rows: file.rows.length,
      digest: fileDigest(message.text),
      hasGroupColumns: file.groupColumns.length > 0,
      readsGroups: mayReadGroups(file),
    });
    return;
  }
  if (message.type === 'more') return sendNext();
  if (!file) throw new Error('the members file was not read first');
  if (message.type === 'groupReads') send({ type: 'groupReads', usernames: groupReadsNeeded(file, message.members) });
  else {
    unsent = planMessages(makePlan(file, message.state, message.options));
    // What the plan was made from is not needed any more: the worker's memory goes back while the parts go out.
    file = undefined;
    sendNext();
  }
}

port?.on('message', (message: ToWorker) => {
  try {
    handle(message);
  } catch (error) {
    send({ type: 'error', message: error instanceof Error ? error.message : String(error) });
  }
});
