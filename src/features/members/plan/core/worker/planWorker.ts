/**
 * The worker that reads and plans a members file, off the extension host's event loop: a file of tens of megabytes
 * takes seconds to parse and plan. Here the host's editor stays responsive, and what the reading needed is freed
 * when the worker ends; the host keeps only the plan.
 *
 * The worker keeps the text and a small index of its rows (RowIndex), never the rows: each row's cells and typed
 * values cost several times its text, and a file of hundreds of thousands of rows would hold hundreds of megabytes
 * in them, on top of the plan the host gathers. Each step that needs the rows reads them again from the text, one
 * at a time; the plan goes to the host in parts while it is made, so neither end holds it twice.
 *
 * The portal is read by the host (the client, its sign-in and its request budget live there): the worker says what
 * the file needs read, and plans once the host sends what it read. See planInWorker.ts for the host's side.
 *
 * A file given as rows (chat's proposals, at most a thousand of them) has no text to read again: the worker keeps its
 * rows, and every step after reading them is the same code as a file's.
 */
import { parentPort } from 'node:worker_threads';
import { desiredRow, SLICE_ROWS } from '../file/desiredRows';
import { GroupReads, mayReadGroups } from '../file/groupReads';
import { rereadRows, streamMembersFile, usernameOf, type ParseOptions, type RowSink } from '../file/membersFile';
import { RowIndex, rowIndexOf } from '../file/rowIndex';
import { fileDigest, GROWING_SECTIONS, Planning } from '../planner';
import { PART_ITEMS, type FromWorker, type PlanArrayKey, type PlanMapKey, type ToWorker } from './protocol';
import type {
  FileWithoutRows,
  MembersFile,
  MembersFileRow,
  FilePlan,
  PortalMember,
  PortalState,
  Problem,
} from '../model';
import type { PlanOptions } from '../planner';

const port = parentPort;

function send(message: FromWorker): void {
  port?.postMessage(message);
}

/** The host took in the last part sent. */
let taken: (() => void) | undefined;

/** Sends a part and waits until the host has taken it in: parts go no faster than the host takes them in. */
function sendPart(message: FromWorker): Promise<void> {
  return new Promise((resolve) => {
    taken = resolve;
    send(message);
  });
}

/** Between two slices of the text: a turn of the event loop, so the host's messages come in. */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** The long sections of the finished plan in parts, then the rest. */
async function sendPlan(plan: FilePlan, problems: readonly Problem[]): Promise<void> {
  const rest: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(plan)) {
    if (Array.isArray(value) && value.length > PART_ITEMS) {
      for (let at = 0; at < value.length; at += PART_ITEMS)
        await sendPart({ type: 'part', key: key as PlanArrayKey, items: value.slice(at, at + PART_ITEMS) });
      rest[key] = [];
    } else if (value instanceof Map && value.size > PART_ITEMS) {
      const entries = [...(value as Map<string, unknown>)];
      for (let at = 0; at < entries.length; at += PART_ITEMS)
        await sendPart({ type: 'mapPart', key: key as PlanMapKey, entries: entries.slice(at, at + PART_ITEMS) });
      rest[key] = new Map();
    } else rest[key] = value;
  }
  send({ type: 'plan', rest: rest as Partial<FilePlan>, problems });
}

/**
 * The file read: its header (and text), the index of its rows, and how its rows are read again for each step: from
 * the text, or from the rows it came as. `pause` is awaited between slices of them.
 */
interface FileHeld {
  readonly head: FileWithoutRows;
  readonly index: RowIndex;
  eachRow(pause: () => Promise<void>, onRow: RowSink): Promise<void>;
}

let file: FileHeld | undefined;

function fileRead(): FileHeld {
  if (!file) throw new Error('the members file was not read first');
  return file;
}

function answerRead(held: FileHeld, digest: string): void {
  file = held;
  send({
    type: 'read',
    rows: held.index.rows,
    digest,
    hasGroupColumns: held.head.groupColumns.length > 0,
    readsGroups: mayReadGroups(held.head),
  });
}

async function read(text: string, options: ParseOptions): Promise<void> {
  const index = new RowIndex();
  const head = await streamMembersFile(text, options, nextTurn, (row, username) => index.add(row, username));
  answerRead({ head, index, eachRow: (pause, onRow) => rereadRows(head, pause, onRow) }, fileDigest(text));
}

function takeRows(given: MembersFile): void {
  const eachRow = async (pause: () => Promise<void>, onRow: RowSink): Promise<void> => {
    for (let at = 0; at < given.rows.length; at += SLICE_ROWS) {
      for (const row of given.rows.slice(at, at + SLICE_ROWS)) onRow(row, usernameOf(given, row));
      await pause();
    }
  };
  const digest = fileDigest(JSON.stringify([given.header.map((h) => h.text), given.rows.map((r) => r.values)]));
  answerRead({ head: given, index: rowIndexOf(given), eachRow }, digest);
}

async function groupReads(members: ReadonlyMap<string, PortalMember>): Promise<void> {
  const { head, eachRow } = fileRead();
  const reads = new GroupReads(head, members);
  // Only a row of a member on the portal can need a read: the others are not typed at all.
  await eachRow(nextTurn, (row, username) => {
    if (reads.concerns(username)) reads.row(desiredRow(head, row));
  });
  send({ type: 'groupReads', usernames: reads.usernames() });
}

async function plan(state: PortalState, options: PlanOptions): Promise<void> {
  const { head, index, eachRow } = fileRead();
  const planning = new Planning(head, index, state, options);
  // As makePlan: a file without a username column has no row to plan.
  const planRow = head.columns.has('username')
    ? (row: MembersFileRow) => planning.row(desiredRow(head, row))
    : () => undefined;
  // What a slice of the text planned goes to the host before the next slice is read: nothing planned outlives its
  // slice here, so the worker's heap holds the text, its index and one slice's work.
  const sendParts = async (): Promise<void> => {
    for (const key of GROWING_SECTIONS)
      while (planning.planned(key) > 0) await sendPart({ type: 'part', key, items: planning.take(key, PART_ITEMS) });
    await nextTurn();
  };
  await eachRow(sendParts, planRow);
  // What the plan was made from is not needed any more: the worker's memory goes back while the rest goes out.
  file = undefined;
  await sendPlan(planning.plan(), planning.fileProblems());
}

async function handle(message: ToWorker): Promise<void> {
  if (message.type === 'more') {
    const resolve = taken;
    taken = undefined;
    resolve?.();
  } else if (message.type === 'read') await read(message.text, message.options);
  else if (message.type === 'rows') takeRows(message.file);
  else if (message.type === 'groupReads') await groupReads(message.members);
  else await plan(message.state, message.options);
}

port?.on('message', (message: ToWorker) => {
  handle(message).catch((error: unknown) =>
    send({ type: 'error', message: error instanceof Error ? error.message : String(error) }),
  );
});
