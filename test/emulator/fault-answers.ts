// What a terminal fault answers instead of the handler, and how a body fault reshapes the handler's
// answer before it is written (the ones that change how it is written live in respond.ts).
import { shapedError } from './error-shapes';
import { streamHugeBody } from './fault-streams';
import type { Reply } from './http';
import { oversize } from './oversize';
import { apiErrorReply } from './profile';
import type { FaultRule, Profile } from './types';

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * The answer of a status, rate-limit, huge-body or error-body rule (reset has none: it cuts the
 * line; ignore-writes runs a read instead). Injected 429/500/503 take the profile's error shape,
 * like the emulator's own errors of those statuses.
 */
export function terminalAnswer(t: FaultRule, profile: Profile): Reply {
  const retryAfter = { 'Retry-After': String(t.retryAfterSeconds ?? 1) };
  switch (t.kind) {
    case 'rate-limit':
      return apiErrorReply(
        profile,
        429,
        { error: 'rate_limited', message: `Too many requests; retry in ${t.retryAfterSeconds ?? 1} s` },
        retryAfter,
      );
    case 'huge-body': {
      const bytes = t.bytes ?? 0;
      const headers: Record<string, string> = { 'Content-Type': JSON_TYPE };
      if (t.contentLength !== false) headers['Content-Length'] = String(bytes);
      return { kind: 'stream', status: 200, headers, write: (res) => streamHugeBody(res, bytes) };
    }
    case 'error-body':
      return shapedError(
        t.status ?? 500,
        t.shape ?? 'html',
        undefined,
        t.retryAfterSeconds === undefined ? {} : retryAfter,
      );
    default:
      return t.status === 503
        ? apiErrorReply(
            profile,
            503,
            { error: 'service_unavailable', message: 'Service temporarily unavailable' },
            retryAfter,
          )
        : apiErrorReply(profile, 500, { error: 'internal_error', message: 'Internal server error (injected fault)' });
  }
}

/** oversized-page changes the answer itself; the other body faults change how it is written. */
export function reshaped(reply: Reply, fault: FaultRule | undefined, query: URLSearchParams): Reply {
  return fault?.kind === 'oversized-page' ? oversize(reply, query, fault.factor) : reply;
}
