// Fault answers that are streamed rather than encoded: `huge-body` and `drip`.
//
// `huge-body`: a JSON array of exactly `bytes` bytes, streamed from one reused 1 MiB
// buffer with backpressure, so a 2 GiB answer costs the emulator about 1 MiB of memory and a
// gigabyte crosses loopback in seconds. The body is valid JSON (an array of small records, padded
// with whitespace), so only a client's size cap, never a parse error, can stop it.
import type { ServerResponse } from 'node:http';
import type { Timers } from './timers';

export const MAX_HUGE_BODY_BYTES = 2 * 1024 ** 3;

const NAME = 'x'.repeat(109);
/** One array element with its comma: exactly 128 bytes. */
const RECORD = Buffer.from(`{"id":1,"name":"${NAME}"},`, 'latin1');
const R = RECORD.length;
const RECORDS_PER_CHUNK = 8192;
let chunk: Buffer | undefined;

function recordsChunk(): Buffer {
  chunk ??= Buffer.concat(Array.from({ length: RECORDS_PER_CHUNK }, () => RECORD));
  return chunk;
}

/** Resolves when the socket can take more, or when the client has gone. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

async function put(res: ServerResponse, bytes: Buffer): Promise<boolean> {
  if (res.destroyed) return false;
  if (!res.write(bytes)) await drained(res);
  return !res.destroyed;
}

/** Writes the whole body and ends the response; stops early when the client disconnects. */
export async function streamHugeBody(res: ServerResponse, bytes: number): Promise<void> {
  if (bytes < 2) {
    res.end(bytes === 1 ? ' ' : '');
    return;
  }
  const records = Math.floor((bytes - 1) / R);
  if (records === 0) {
    res.end(`[${' '.repeat(bytes - 2)}]`);
    return;
  }
  if (!(await put(res, Buffer.from('[')))) return;
  const full = recordsChunk();
  const before = records - 1;
  for (let i = 0; i < Math.floor(before / RECORDS_PER_CHUNK); i++) if (!(await put(res, full))) return;
  const rest = before % RECORDS_PER_CHUNK;
  if (rest > 0 && !(await put(res, full.subarray(0, rest * R)))) return;
  const pad = bytes - 1 - records * R;
  res.end(Buffer.concat([RECORD.subarray(0, R - 1), Buffer.alloc(pad, ' '), Buffer.from(']')]));
}

/**
 * A server that never finishes: headers at once (chunked, no Content-Length), then one byte per
 * delay, the real body first and spaces after it, until the client goes away or the emulator stops.
 */
export async function drip(
  res: ServerResponse,
  status: number,
  headers: Record<string, string>,
  bytes: Buffer,
  delayMs: number,
  timers: Timers,
): Promise<void> {
  res.writeHead(status, headers);
  res.flushHeaders();
  const space = Buffer.from(' ');
  for (let i = 0; ; i++) {
    await timers.sleep(delayMs);
    if (!(await put(res, i < bytes.length ? bytes.subarray(i, i + 1) : space))) return;
  }
}
