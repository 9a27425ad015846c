/**
 * The journal of reads asked on someone's behalf (chat's tool calls): which tool, what it was asked, for which portal
 * and organisation, when, and how it ended; never what it answered. One JSON line per call in a 0600 file in a 0700
 * folder of the extension's storage (the input names people), so the change history lists these questions beside
 * the writes. It sits in the engine, beside the writes' journal, so that the feature that asks and the history that
 * lists share one reader.
 *
 * The file is bounded in bytes, not lines: a proposal's input can be a thousand rows, so a bound in lines let the log
 * grow to tens of megabytes and each call then read all of it, on the extension host's thread, to cut it. Now each
 * line is bounded (an input too large keeps only its outline, marked `cut`), and once the file passes its bound only
 * its tail is read, by position, and kept: the cost of a call is bounded whatever size the file had before.
 */
import * as path from 'node:path';
import { appendPrivateSync, isNotFound, readBytesSync, readText, replacePrivateSync } from '../node/disk';
import { privateFolderSync } from '../node/privateFiles';

/** A question asked through one of the portal's tools, as journaled: what and when, never the answer. */
export interface ToolCall {
  /** Epoch ms. */
  readonly at: number;
  readonly tool: string;
  readonly input: Readonly<Record<string, unknown>>;
  /** The portal's base URL and the organisation's name, once the call named them. */
  readonly portal?: string;
  readonly organisation?: string;
  readonly outcome: 'answered' | 'proposed' | 'failed' | 'declined';
}

const FILE = 'tool-calls.jsonl';
/** The file's bound: past it, the file is cut to its newest half (months of questions either way). */
export const LOG_MAX_BYTES = 1024 * 1024;
/** One call's bound, far below the file's, so a cut always keeps many calls. */
export const LINE_MAX_BYTES = 8 * 1024;
const KEEP_BYTES = LOG_MAX_BYTES / 2;
/** What an outline of a too large input keeps: this much of each string, of each list, of each object, this deep. */
const OUTLINE = { chars: 100, items: 10, keys: 20, depth: 3 } as const;

/** The folder the log lives in, under the extension's storage. */
export function callLogFolder(storage: string): string {
  return path.join(storage, 'chat');
}

function asCall(v: unknown): ToolCall | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const o = v as Record<string, unknown>;
  if (typeof o.at !== 'number' || typeof o.tool !== 'string' || typeof o.outcome !== 'string') return undefined;
  const input = typeof o.input === 'object' && o.input !== null ? (o.input as Record<string, unknown>) : {};
  return {
    at: o.at,
    tool: o.tool,
    input,
    ...(typeof o.portal === 'string' ? { portal: o.portal } : {}),
    ...(typeof o.organisation === 'string' ? { organisation: o.organisation } : {}),
    outcome: o.outcome as ToolCall['outcome'],
  };
}

/**
 * The calls journaled in this storage folder, oldest first: what *Show Change History…* lists as chat's reads.
 * A torn or foreign line is skipped.
 */
export async function listToolCalls(storage: string): Promise<ToolCall[]> {
  let text: string;
  try {
    text = await readText(path.join(callLogFolder(storage), FILE));
  } catch (error) {
    if (isNotFound(error)) return [];
    throw error;
  }
  const calls: ToolCall[] = [];
  for (const line of text.split('\n')) {
    if (!line) continue;
    try {
      const call = asCall(JSON.parse(line));
      if (call) calls.push(call);
    } catch {
      // a line a crash cut short
    }
  }
  return calls;
}

/** A value shortened to its outline: strings cut, lists and objects to their first entries, nesting bounded. */
function outline(v: unknown, depth: number): unknown {
  if (typeof v === 'string') return v.length > OUTLINE.chars ? `${v.slice(0, OUTLINE.chars)}…` : v;
  if (typeof v !== 'object' || v === null) return v;
  if (Array.isArray(v)) {
    if (depth === 0) return `${v.length} items`;
    const head = v.slice(0, OUTLINE.items).map((x) => outline(x, depth - 1));
    return v.length > OUTLINE.items ? [...head, `${v.length - OUTLINE.items} more`] : head;
  }
  if (depth === 0) return '…';
  const entries = Object.entries(v).slice(0, OUTLINE.keys);
  return Object.fromEntries(entries.map(([k, x]) => [k.slice(0, OUTLINE.chars), outline(x, depth - 1)]));
}

/** The call as one line of at most LINE_MAX_BYTES: its input outlined, or left out, when the whole is too long. */
function callLine(call: ToolCall): string {
  const fits = (c: ToolCall) => {
    const line = `${JSON.stringify(c)}\n`;
    return Buffer.byteLength(line) <= LINE_MAX_BYTES ? line : undefined;
  };
  const cut = (input: object) => ({ ...input, cut: true });
  const bare: ToolCall = {
    at: call.at,
    tool: call.tool.slice(0, OUTLINE.chars),
    input: cut({}),
    ...(call.portal !== undefined ? { portal: call.portal.slice(0, 500) } : {}),
    ...(call.organisation !== undefined ? { organisation: call.organisation.slice(0, 200) } : {}),
    outcome: call.outcome,
  };
  return (
    fits(call) ??
    fits({ ...bare, input: cut(outline(call.input, OUTLINE.depth) as object) }) ??
    // Only a bare call with no input left: bounded by construction.
    `${JSON.stringify(bare)}\n`
  );
}

/** The newest whole lines of the file's last `keep` bytes, read by position: never the whole file. */
function tailOf(file: string, size: number, keep: number): Buffer {
  const start = Math.max(0, size - keep);
  const tail = readBytesSync(file, start, size - start);
  // The first line is whole only when the tail starts the file or follows a line's end.
  const first = start === 0 ? 0 : tail.indexOf(0x0a) + 1;
  return first > 0 || start === 0 ? tail.subarray(first) : Buffer.alloc(0);
}

export class ToolCallLog {
  private readonly folder: string;
  private readonly file: string;

  constructor(storage: string) {
    this.folder = callLogFolder(storage);
    this.file = path.join(this.folder, FILE);
  }

  /**
   * Appends the call; synchronous, so the line is on disk before the answer is given. Past the file's bound, the file
   * becomes its newest half: a read of that half by position and one write, whatever the file's size.
   */
  record(call: ToolCall): void {
    privateFolderSync(this.folder);
    const size = appendPrivateSync(this.file, callLine(call));
    if (size > LOG_MAX_BYTES) this.cut(size);
  }

  private cut(size: number): void {
    replacePrivateSync(this.file, tailOf(this.file, size, KEEP_BYTES));
  }
}
