// Writing a Reply to the wire, optionally mangled by a body fault.
import type { ServerResponse } from 'node:http';
import { drip } from './fault-streams';
import type { Reply } from './http';
import type { Timers } from './timers';
import type { FaultRule } from './types';

const JSON_TYPE = 'application/json; charset=utf-8';
/** The classic anti-XSSI prefix: plausible on the wire, and never valid JSON. */
const MALFORMED_PREFIX = ")]}'\n";
const SLOW_CHUNKS = 10;

const DEFAULT_DRIP_MS = 1000;

function encode(reply: Exclude<Reply, { kind: 'stream' }>): { bytes: Buffer; headers: Record<string, string> } {
  switch (reply.kind) {
    case 'json':
      return {
        bytes: Buffer.from(JSON.stringify(reply.body), 'utf8'),
        headers: { 'Content-Type': JSON_TYPE, ...reply.headers },
      };
    case 'empty':
      return { bytes: Buffer.alloc(0), headers: { ...reply.headers } };
    case 'bytes':
      return { bytes: reply.bytes, headers: { ...reply.headers } };
  }
}

export async function writeReply(res: ServerResponse, reply: Reply, timers: Timers, fault?: FaultRule): Promise<void> {
  if (res.destroyed || res.headersSent) return;
  if (reply.kind === 'stream') {
    res.writeHead(reply.status, reply.headers);
    await reply.write(res);
    return;
  }
  const encoded = encode(reply);
  if (fault?.kind === 'drip') {
    await drip(
      res,
      reply.status,
      encoded.headers,
      encoded.bytes,
      Math.max(1, fault.delayMs ?? DEFAULT_DRIP_MS),
      timers,
    );
    return;
  }
  const headers = encoded.headers;
  let bytes = encoded.bytes;
  if (fault?.kind === 'truncated-json') bytes = bytes.subarray(0, Math.floor(bytes.length / 2));
  if (fault?.kind === 'malformed-json') bytes = Buffer.concat([Buffer.from(MALFORMED_PREFIX), bytes]);
  res.writeHead(reply.status, { ...headers, 'Content-Length': String(bytes.length) });
  if (fault?.kind !== 'slow-body') {
    res.end(bytes);
    return;
  }
  // Headers now, the body in pieces spread over delayMs.
  res.flushHeaders();
  const chunks = Math.max(1, Math.min(SLOW_CHUNKS, bytes.length));
  const step = Math.ceil(bytes.length / chunks);
  const pause = Math.floor((fault.delayMs ?? 1000) / chunks);
  for (let i = 0; i < chunks; i++) {
    await timers.sleep(pause);
    if (res.destroyed) return;
    res.write(bytes.subarray(i * step, (i + 1) * step));
  }
  res.end();
}

export function errorReply(status: number, body: Record<string, unknown>, headers: Record<string, string> = {}): Reply {
  return { kind: 'json', status, body, headers };
}
