/**
 * Removes credentials from text before it is logged or put in an error message.
 * Two layers: patterns (query/form parameters, JSON fields, Authorization values) catch secrets by shape;
 * a SecretRegistry catches them by value, so a password echoed in an odd place is masked too.
 */

export const MASK = '***';

/** Parameter and field names whose values are always secret. */
export const SECRET_NAMES = [
  'password',
  'client_secret',
  'code',
  'refresh_token',
  'access_token',
  'clientSecret',
  'accessToken',
  'refreshToken',
  'secret',
  'token',
] as const;

const names = SECRET_NAMES.join('|');
// name=value in query strings and form bodies (value ends at &, whitespace, quote or #).
const PARAM_RE = new RegExp(`(^|[?&\\s"'])(${names})=([^&\\s"'#]*)`, 'gi');
// "name": "value" (and "name": 123 for numeric codes) in JSON.
const JSON_RE = new RegExp(`("(?:${names})"\\s*:\\s*)("(?:[^"\\\\]|\\\\.)*"|-?\\d+)`, 'gi');
// Authorization header values.
const BEARER_RE = /\b(Bearer|Basic)\s+[A-Za-z0-9\-._~+/=]+/gi;

/** Values shorter than this are not masked literally (masking "a" everywhere would garble every message). */
export const MIN_SECRET_LENGTH = 4;

/** Redacts by shape, then masks every literal secret given. */
export function redact(text: string, secrets: Iterable<string> = []): string {
  let out = text
    .replace(PARAM_RE, (_m, pre: string, name: string) => `${pre}${name}=${MASK}`)
    .replace(JSON_RE, (_m, pre: string) => `${pre}"${MASK}"`)
    .replace(BEARER_RE, (_m, scheme: string) => `${scheme} ${MASK}`);
  for (const secret of secrets) {
    if (secret.length < MIN_SECRET_LENGTH) continue;
    if (out.includes(secret)) out = out.split(secret).join(MASK);
    // Also the URL-encoded form, as it would appear in a query string.
    const encoded = encodeURIComponent(secret);
    if (encoded !== secret && out.includes(encoded)) out = out.split(encoded).join(MASK);
  }
  return out;
}

/**
 * Secret values one client knows. Long-lived secrets (password, client secret) are pinned until forgotten;
 * tokens rotate, so only the most recent ones are kept (old tokens are dead, but still masked for a while).
 */
export class SecretRegistry {
  private readonly pinned = new Set<string>();
  private readonly rotating: string[] = [];
  private readonly maxRotating: number;

  constructor(maxRotating = 32) {
    this.maxRotating = maxRotating;
  }

  pin(value: string | undefined): void {
    if (value) this.pinned.add(value);
  }

  unpin(value: string | undefined): void {
    if (value) this.pinned.delete(value);
  }

  /** Remembers a rotating secret (access or refresh token). */
  add(value: string | undefined): void {
    if (!value || this.rotating.includes(value)) return;
    this.rotating.push(value);
    if (this.rotating.length > this.maxRotating) this.rotating.shift();
  }

  *values(): Iterable<string> {
    yield* this.pinned;
    yield* this.rotating;
  }

  /** Longest first, so a secret containing another is masked whole. */
  private sorted(): string[] {
    return [...this.values()].sort((a, b) => b.length - a.length);
  }

  redact(text: string): string {
    return redact(text, this.sorted());
  }
}

const SECRET_FIELD = new Set(SECRET_NAMES.map((n) => n.toLowerCase()));

/**
 * Values of secret-named fields (password, clientSecret, ...) anywhere in a JSON value, so a client can
 * mask them later too (a password set for a member must not show up in a log when someone searches for it).
 * Bounded in depth and count.
 */
export function secretValuesIn(value: unknown, depth = 4, out: string[] = []): string[] {
  if (depth < 0 || out.length >= 32 || value === null || typeof value !== 'object') return out;
  if (Array.isArray(value)) {
    for (const v of value.slice(0, 100)) secretValuesIn(v, depth - 1, out);
    return out;
  }
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (typeof v === 'string' && SECRET_FIELD.has(k.toLowerCase())) out.push(v);
    else if (v !== null && typeof v === 'object') secretValuesIn(v, depth - 1, out);
  }
  return out;
}

/**
 * Registers the client secret an answer carries (an application created, or its secret rotated) with the client's
 * redaction, and passes the answer on: a later log line or error that echoes the secret shows it masked.
 */
export function keepingSecret<A extends { clientSecret?: string | null }>(
  api: { keepSecret(value: string | null | undefined): void },
  application: A,
): A {
  api.keepSecret(application.clientSecret);
  return application;
}
