/**
 * The one error type of the API layer. Every failure a caller can see is a PortalError with a `kind`
 * the UI can switch on, the endpoint (method + path, never the query string), the HTTP status when there
 * was one, the server's own message, and a `message` a person can act on.
 * Messages never contain secrets: the client redacts them before an error leaves it (see redact.ts).
 */
import * as l10n from '@vscode/l10n';
import { sentWithout, type Resource } from './models/resources';

export type PortalErrorKind =
  | 'auth'
  | 'two-factor-required'
  | 'two-factor-invalid'
  | 'signed-out'
  | 'forbidden'
  | 'not-found'
  | 'conflict'
  | 'invalid-input'
  | 'rate-limited'
  | 'network'
  | 'tls'
  | 'timeout'
  | 'cancelled'
  | 'server'
  | 'invalid-response';

export interface FieldError {
  field: string;
  message: string;
}

export interface PortalErrorInit {
  kind: PortalErrorKind;
  message: string;
  /** "GET /v3/userinfo"; never includes the query string. */
  endpoint: string;
  status?: number;
  serverMessage?: string;
  fieldErrors?: FieldError[];
  /** Machine code: the server's `error` value (e.g. `invalid_grant`) or a network code (e.g. `ECONNREFUSED`). */
  code?: string;
  /** For 'rate-limited': how long the server asked to wait, when it said. */
  retryAfterMs?: number;
}

export class PortalError extends Error {
  override readonly name = 'PortalError';
  readonly kind: PortalErrorKind;
  readonly endpoint: string;
  readonly status?: number;
  readonly serverMessage?: string;
  readonly fieldErrors?: FieldError[];
  readonly code?: string;
  readonly retryAfterMs?: number;

  constructor(init: PortalErrorInit) {
    super(init.message);
    this.kind = init.kind;
    this.endpoint = init.endpoint;
    if (init.status !== undefined) this.status = init.status;
    if (init.serverMessage !== undefined) this.serverMessage = init.serverMessage;
    if (init.fieldErrors !== undefined) this.fieldErrors = init.fieldErrors;
    if (init.code !== undefined) this.code = init.code;
    if (init.retryAfterMs !== undefined) this.retryAfterMs = init.retryAfterMs;
  }

  /** A copy with another endpoint (models are parsed without knowing which call they came from). */
  withEndpoint(endpoint: string): PortalError {
    return new PortalError({ ...this.toInit(), endpoint });
  }

  /** A copy whose texts went through `scrub` (used for redaction). */
  mapTexts(scrub: (text: string) => string): PortalError {
    const init = this.toInit();
    const copy = new PortalError({
      ...init,
      message: scrub(init.message),
      ...(init.serverMessage !== undefined ? { serverMessage: scrub(init.serverMessage) } : {}),
      ...(init.fieldErrors !== undefined
        ? { fieldErrors: init.fieldErrors.map((f) => ({ field: f.field, message: scrub(f.message) })) }
        : {}),
    });
    return copy;
  }

  toInit(): PortalErrorInit {
    return {
      kind: this.kind,
      message: this.message,
      endpoint: this.endpoint,
      ...(this.status !== undefined ? { status: this.status } : {}),
      ...(this.serverMessage !== undefined ? { serverMessage: this.serverMessage } : {}),
      ...(this.fieldErrors !== undefined ? { fieldErrors: this.fieldErrors } : {}),
      ...(this.code !== undefined ? { code: this.code } : {}),
      ...(this.retryAfterMs !== undefined ? { retryAfterMs: this.retryAfterMs } : {}),
    };
  }

  toJSON(): PortalErrorInit & { name: string } {
    return { name: this.name, ...this.toInit() };
  }
}

/**
 * Machine codes (PortalError.code) the client itself gives, for callers that must tell these cases apart from
 * other errors of the same kind. Server codes (`invalid_grant`, …) and network codes (`ECONNREFUSED`, …) are
 * passed through as they come.
 */
export const ERROR_CODES = {
  /** 'invalid-response': a JSON answer over the client's size cap (PortalClientOptions.maxJsonBytes). */
  responseTooLarge: 'RESPONSE_TOO_LARGE',
  /** 'invalid-response': a page longer than the size asked for (see paging.ts). */
  pageTooLong: 'PAGE_TOO_LONG',
  /** 'invalid-response': a plain-array list over MAX_LIST_ROWS rows. */
  listTooLong: 'LIST_TOO_LONG',
  /** 'timeout': the overall time limit of one request ran out (PortalClientOptions.deadlineMs). */
  deadline: 'DEADLINE',
  /** 'invalid-input': an id or name that would become "." or ".." (or nothing) in a request path. */
  unsafePathSegment: 'UNSAFE_PATH_SEGMENT',
  /** 'network': a *.localhost portal over http:// whose name did not resolve to this computer. */
  notLoopback: 'NOT_LOOPBACK',
  /** 'cancelled': the caller's signal, or close(). */
  cancelled: 'CANCELLED',
} as const;

/** The one cancellation error of the API layer (a caller's signal, a closed client, a queued call dropped). */
export function cancelledError(endpoint = '', message = l10n.t('The request was cancelled.')): PortalError {
  return new PortalError({ kind: 'cancelled', endpoint, code: ERROR_CODES.cancelled, message });
}

/** The text of anything thrown, for logs and messages: a PortalError's message, an Error's, or the value. */
export function errorMessage(e: unknown): string {
  if (e instanceof Error) return e.message;
  if (typeof e === 'string') return e;
  try {
    return String(e);
  } catch {
    return l10n.t('Unknown error');
  }
}

/** Longest server text quoted in a message; the whole text stays in `serverMessage`. */
export const MAX_QUOTED_CHARS = 300;
// C0/C1 controls, bidi embeddings, overrides and isolates, zero-width characters and the BOM: none belongs in a
// one-line message, and bidi overrides can make a message read differently from what it says.
// eslint-disable-next-line no-control-regex
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;

/**
 * Server text as it may appear inside a message: unprintable and direction-changing characters removed,
 * whitespace collapsed to single spaces, and cut to `max` characters. Link and icon syntax is the UI's to
 * neutralise (it knows where it renders); this keeps an error page from becoming a 20 KB message.
 */
export function quoteServerText(text: string, max = MAX_QUOTED_CHARS): string {
  const flat = text.replace(UNPRINTABLE, ' ').replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  // Do not cut a surrogate pair in half.
  let end = max - 1;
  const code = flat.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${flat.slice(0, end)}…`;
}

export function isPortalError(value: unknown, kind?: PortalErrorKind): value is PortalError {
  return value instanceof PortalError && (kind === undefined || value.kind === kind);
}

/** Parsers throw this when a required identity field is missing; the client adds the endpoint. */
export function invalidModel(resource: Resource, detail: string): PortalError {
  return new PortalError({ kind: 'invalid-response', endpoint: '', message: sentWithout(resource, detail) });
}
