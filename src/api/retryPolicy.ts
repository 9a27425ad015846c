/**
 * The retry policy, as one pure function from what happened to one attempt to what the client does next.
 *
 * - 401 on a call that carried a token: renew the token once (the renewal is shared by every concurrent caller)
 *   and repeat; a second 401 means the portal refuses a freshly issued token: signed out.
 * - 429 (any method: the request was not processed) and 503 (GET only): wait Retry-After (the whole client holds
 *   off, not just this call), at most `maxRetryAfterMs`, up to `rateLimitAttempts` tries. Without Retry-After the
 *   wait starts at `defaultRetryAfterMs` and doubles.
 * - Network errors, timeouts (the overall deadline included), answers cut off, and other 5xx: jittered exponential
 *   backoff, GET only, up to `attempts` tries. POST, PATCH and DELETE are repeated only when the failure proves
 *   nothing left this machine (connection refused, name lookup failure, connect timeout). Failures that will not
 *   pass by waiting (a refused certificate, a loopback name resolving elsewhere) are not repeated at all.
 * - Everything else (4xx, an answer over the size cap, a cancellation) ends the call at once.
 *
 * Each retry raises one of three bounded counters, so a call ends after at most
 * attempts + rateLimitAttempts tries whatever the server does.
 */
import { PortalError } from './errors';

/** What one attempt came to. */
export type Outcome =
  | { readonly kind: 'ok' }
  /** 401 to a request that carried `token`. */
  | { readonly kind: 'unauthorized'; readonly token: string }
  /** Any other non-2xx answer, already mapped to the error the caller would see. */
  | {
      readonly kind: 'http';
      readonly status: number;
      readonly retryAfterMs: number | undefined;
      readonly error: PortalError;
    }
  /** No usable answer: network, TLS, timeout, body cut off or too large, cancellation. */
  | { readonly kind: 'failure'; readonly error: PortalError; readonly transient: boolean; readonly neverSent: boolean };

export interface RetryLimits {
  /** Tries for GET on network errors and 5xx (and for any method when nothing was sent). */
  readonly attempts: number;
  /** Tries when the portal answers 429 (or 503 for GET). */
  readonly rateLimitAttempts: number;
  /** First backoff delay; doubled each retry, with jitter (×0.5 to ×1.5). */
  readonly backoffMs: number;
  readonly maxBackoffMs: number;
  /** A Retry-After longer than this is not waited for: the call fails at once. */
  readonly maxRetryAfterMs: number;
  /** Wait when a 429/503 has no Retry-After (doubled on each further one). */
  readonly defaultRetryAfterMs: number;
}

export interface RetryState {
  /** GET: transient failures may be repeated. Other methods only when nothing was sent. */
  readonly idempotent: boolean;
  readonly limits: RetryLimits;
  /** Backoff retries spent (network, timeouts, 5xx). */
  readonly failures: number;
  /** 429/503 waits spent. */
  readonly rateWaits: number;
  /** The token was renewed once after a 401. */
  readonly renewed: boolean;
}

export type Step =
  | { readonly action: 'return' }
  | { readonly action: 'throw'; readonly error: PortalError }
  | { readonly action: 'renew-token'; readonly state: RetryState }
  /** A freshly issued token was refused too: the session is signed out. */
  | { readonly action: 'signed-out' }
  | { readonly action: 'wait-and-retry'; readonly ms: number; readonly state: RetryState }
  /** Every request of the client holds off for `ms` (the portal's Retry-After applies to all of them). */
  | { readonly action: 'pause-all-and-retry'; readonly ms: number; readonly state: RetryState };

export function firstTry(idempotent: boolean, limits: RetryLimits): RetryState {
  return { idempotent, limits, failures: 0, rateWaits: 0, renewed: false };
}

const RETURN: Step = { action: 'return' };
const SIGNED_OUT: Step = { action: 'signed-out' };

function fail(error: PortalError): Step {
  return { action: 'throw', error };
}

/** Jittered exponential backoff, or the error once the tries are spent. `random` gives 0 ≤ r < 1. */
function backoff(state: RetryState, error: PortalError, random: () => number): Step {
  const n = state.failures + 1;
  if (n >= state.limits.attempts) return fail(error);
  const base = Math.min(state.limits.maxBackoffMs, state.limits.backoffMs * 2 ** (n - 1));
  return { action: 'wait-and-retry', ms: Math.round(base * (0.5 + random())), state: { ...state, failures: n } };
}

function afterStatus(outcome: Extract<Outcome, { kind: 'http' }>, state: RetryState, random: () => number): Step {
  const { status, error } = outcome;
  const { limits } = state;
  if (status === 429 || (status === 503 && state.idempotent)) {
    const wait = outcome.retryAfterMs ?? limits.defaultRetryAfterMs * 2 ** state.rateWaits;
    if (state.rateWaits + 1 < limits.rateLimitAttempts && wait <= limits.maxRetryAfterMs) {
      return { action: 'pause-all-and-retry', ms: wait, state: { ...state, rateWaits: state.rateWaits + 1 } };
    }
    return fail(
      status === 429 ? new PortalError({ ...error.toInit(), kind: 'rate-limited', retryAfterMs: wait }) : error,
    );
  }
  if (status >= 500 && state.idempotent) return backoff(state, error, random);
  return fail(error);
}

/** What to do after `outcome`. Pure: the same inputs give the same step. */
export function retryPolicy(outcome: Outcome, state: RetryState, random: () => number = Math.random): Step {
  switch (outcome.kind) {
    case 'ok':
      return RETURN;
    case 'unauthorized':
      return state.renewed ? SIGNED_OUT : { action: 'renew-token', state: { ...state, renewed: true } };
    case 'http':
      return afterStatus(outcome, state, random);
    case 'failure': {
      if (outcome.error.kind === 'cancelled') return fail(outcome.error);
      // A failure that will not pass (a certificate, a size cap) is never repeated; one that may pass is repeated
      // for a GET, and for other methods only if the request provably never left.
      const repeatable = outcome.transient && (state.idempotent || outcome.neverSent);
      return repeatable ? backoff(state, outcome.error, random) : fail(outcome.error);
    }
  }
}
