/**
 * The journal of reads asked on someone's behalf (chat's tool calls): which tool, what it was asked, for which portal
 * and organisation, when, and how it ended; never what it answered. One JSON line per call in a 0600 file in a 0700
 * folder of the extension's storage (the input names people), so the change history lists these questions beside
 * the writes. It sits in the engine, beside the writes' journal, so that the feature that asks and the history that
 * lists share one reader. The file is cut to its newest lines once it grows past a bound.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

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
/** Lines kept once the file is cut: months of questions, a few hundred kilobytes. */
const KEEP = 2000;
const CUT_AT_BYTES = 1_000_000;

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
    text = await fs.promises.readFile(path.join(callLogFolder(storage), FILE), 'utf8');
  } catch {
    return [];
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

export class ToolCallLog {
  private readonly folder: string;
  private readonly file: string;

  constructor(storage: string) {
    this.folder = callLogFolder(storage);
    this.file = path.join(this.folder, FILE);
  }

  /** Appends the call; synchronous, so the line is on disk before the answer is given. */
  record(call: ToolCall): void {
    fs.mkdirSync(this.folder, { recursive: true, mode: 0o700 });
    fs.chmodSync(this.folder, 0o700);
    fs.appendFileSync(this.file, `${JSON.stringify(call)}\n`, { mode: 0o600 });
    fs.chmodSync(this.file, 0o600);
    if (fs.statSync(this.file).size > CUT_AT_BYTES) this.cut();
  }

  private cut(): void {
    const lines = fs.readFileSync(this.file, 'utf8').split('\n').filter(Boolean);
    const tmp = `${this.file}.tmp`;
    fs.writeFileSync(tmp, `${lines.slice(-KEEP).join('\n')}\n`, { mode: 0o600 });
    fs.renameSync(tmp, this.file);
  }
}
