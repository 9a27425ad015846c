/**
 * The one error type of the API layer. Every failure a caller can see is a PortalError with a `kind`
 * the UI can switch on, the endpoint (method + path, never the query string), the HTTP status when there
 * was one, the server's own message, and a `message` a person can act on.
 * Messages never contain secrets: the client redacts them before an error leaves it (see redact.ts).
 */

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

export const PORTAL_ERROR_KINDS: readonly PortalErrorKind[] = [
  'auth', 'two-factor-required', 'two-factor-invalid', 'signed-out', 'forbidden', 'not-found', 'conflict',
  'invalid-input', 'rate-limited', 'network', 'tls', 'timeout', 'cancelled', 'server', 'invalid-response',
];

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

export function isPortalError(value: unknown, kind?: PortalErrorKind): value is PortalError {
  return value instanceof PortalError && (kind === undefined || value.kind === kind);
}

/** Parsers throw this when a required identity field is missing; the client adds the endpoint. */
export function invalidModel(resource: string, detail: string): PortalError {
  return new PortalError({
    kind: 'invalid-response',
    endpoint: '',
    message: `The server sent a ${resource} without ${detail}; it did not answer like a portal API.`,
  });
}
