/**
 * Failure classification: what a low-level failure (a socket error, a timeout, a TLS alert, a body cut off) means
 * for the caller and for the retry policy. One table row per failure code: the error kind, whether the request
 * provably never left this machine (`neverSent`: safe to repeat any method), whether it is worth repeating an
 * idempotent request (`transient`), and the message a person reads.
 */
import { ERROR_CODES, PortalError, errorMessage, type PortalErrorKind } from './errors';

export interface FailureContext {
  endpoint: string;
  host: string;
  /** host:port of the proxy configured for this portal, if any. */
  proxyHost?: string | undefined;
  /** The caller's signal: an abort from it is a cancellation (or the caller's own timeout), never a failure. */
  signal?: AbortSignal | undefined;
  /** The response status had arrived (failure while reading the body). */
  duringBody?: boolean;
  /** Limits the messages quote. */
  maxJsonBytes?: number;
  deadlineMs?: number;
}

export interface ClassifiedFailure {
  error: PortalError;
  /** The request provably never reached the server. */
  neverSent: boolean;
  /** A transient failure, worth a retry (for a GET; for other methods only when neverSent too). */
  transient: boolean;
}

interface Said {
  host: string;
  /** " through the proxy p:3128" when a proxy is configured, else ''. */
  through: string;
  /** What to check: the URL and network, or the proxy settings too. */
  fix: string;
  /** The host the failure names: the proxy when the failing connection was the proxy's, else the portal. */
  target: string;
  ctx: FailureContext;
}

interface Rule {
  kind: PortalErrorKind;
  /** The error's code, when it is the client's own rather than the low-level one. */
  code?: string;
  neverSent: boolean;
  transient: boolean;
  /** The message; `detail` is the rule's own wording where several codes share one shape. */
  say: (s: Said) => string;
}

const unreachable = (reason: string, neverSent: boolean): Rule => ({
  kind: 'network',
  neverSent,
  transient: true,
  say: (s) => `Could not reach ${s.target} (${reason}). ${s.fix}`,
});
const cutOff: Rule = {
  kind: 'invalid-response',
  neverSent: false,
  transient: true,
  say: (s) =>
    `The answer from ${s.host} ended before it was complete (the connection was closed mid-response). Try again.`,
};
const secure = (detail: string, neverSent: boolean): Rule => ({
  kind: 'tls',
  neverSent,
  transient: false,
  say: (s) =>
    `Could not connect securely to ${s.host}: ${detail}. If your network inspects HTTPS, add its certificate authority or check http.proxyStrictSSL.`,
});
const timedOut = (what: (s: Said) => string, neverSent: boolean): Rule => ({
  kind: 'timeout',
  neverSent,
  transient: true,
  say: (s) => `${what(s)}. The portal may be slow or unreachable; try again.`,
});
const closed: Rule = {
  kind: 'cancelled',
  neverSent: true,
  transient: false,
  say: () => 'The portal connection was closed.',
};

/** "60 s", "400 ms": durations as a person reads them in a message. */
function formatDuration(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${Math.round(ms)} ms`;
}

/** "32 MB", "512 KB": sizes as a person reads them in a message. */
export function formatSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round(bytes / (1024 * 1024))} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/** Certificate checks fail in the handshake, before a byte of the request is written. */
const CERTIFICATES: Record<string, string> = {
  CERT_HAS_EXPIRED: 'the certificate has expired',
  ERR_TLS_CERT_ALTNAME_INVALID: 'the certificate is for another host name',
  HOSTNAME_MISMATCH: 'the certificate is for another host name',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'the certificate is self-signed and not trusted',
  SELF_SIGNED_CERT_IN_CHAIN: 'the certificate is self-signed and not trusted',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'the certificate is signed by an authority this computer does not trust',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'the certificate is signed by an authority this computer does not trust',
  CERT_NOT_YET_VALID: 'the secure connection could not be set up',
  CERT_REVOKED: 'the secure connection could not be set up',
  CERT_UNTRUSTED: 'the secure connection could not be set up',
  CERT_SIGNATURE_FAILURE: 'the secure connection could not be set up',
  UNABLE_TO_GET_ISSUER_CERT: 'the secure connection could not be set up',
  UND_ERR_PRX_TLS: 'the secure connection could not be set up',
};

/** code → what it means. Codes met while the body streams have their own table below. */
const RULES: Record<string, Rule> = {
  ECONNREFUSED: unreachable('connection refused', true),
  ENOTFOUND: unreachable('host not found', true),
  EAI_AGAIN: unreachable('name lookup failed', true),
  EAI_FAIL: unreachable('name lookup failed', true),
  EAI_NONAME: unreachable('host not found', true),
  EHOSTUNREACH: unreachable('host unreachable', true),
  ENETUNREACH: unreachable('network unreachable', true),
  EADDRNOTAVAIL: unreachable('address not available', true),
  UND_ERR_PROXY_CONNECT: unreachable('the proxy could not connect', true),
  ECONNRESET: unreachable('the connection was reset', false),
  EPIPE: unreachable('the connection was closed', false),
  UND_ERR_SOCKET: unreachable('the connection was closed', false),
  UNKNOWN: unreachable('network error', false),
  UND_ERR_CONNECT_TIMEOUT: timedOut((s) => `Could not connect to ${s.host}${s.through} in time`, true),
  UND_ERR_HEADERS_TIMEOUT: timedOut((s) => `${s.host} did not answer in time`, false),
  ETIMEDOUT: timedOut((s) => `${s.host} did not answer in time`, false),
  UND_ERR_BODY_TIMEOUT: timedOut((s) => `${s.host} stopped sending its answer`, false),
  [ERROR_CODES.deadline]: timedOut(
    (s) =>
      `${s.host} took longer than ${formatDuration(s.ctx.deadlineMs ?? 0)} to send its whole answer (the time limit for one request)`,
    false,
  ),
  // Other TLS failures (EPROTO, SSL routines) can strike a reused connection mid-request, so a POST that met one
  // must not be assumed unsent.
  TLS: secure('the secure connection could not be set up', false),
  HPE: {
    kind: 'invalid-response',
    neverSent: false,
    transient: false,
    say: (s) =>
      `The server at ${s.host} did not answer with valid HTTP; it is not a portal API (is the scheme http/https right?).`,
  },
  PROXY_REFUSED: {
    kind: 'network',
    neverSent: true,
    transient: false,
    say: (s) => `The proxy ${s.ctx.proxyHost ?? ''} refused to connect to ${s.host}. ${s.fix}`,
  },
  PROXY_AUTH: {
    kind: 'network',
    neverSent: true,
    transient: false,
    say: (s) =>
      `The proxy ${s.ctx.proxyHost ?? ''} asks for a user name and password. Put them in the proxy URL (http.proxy or HTTPS_PROXY).`,
  },
  UND_ERR_DESTROYED: closed,
  UND_ERR_CLOSED: closed,
  UND_ERR_RES_EXCEEDED_MAX_SIZE: {
    kind: 'invalid-response',
    code: ERROR_CODES.responseTooLarge,
    neverSent: false,
    transient: false,
    say: (s) =>
      `The portal sent an answer larger than ${formatSize(s.ctx.maxJsonBytes ?? 0)} for ${s.ctx.endpoint}; the extension stopped reading it. Ask for less at once (a smaller page or a filter), or ask the portal's administrator why the answer is so large.`,
  },
  [ERROR_CODES.notLoopback]: {
    kind: 'network',
    neverSent: true,
    transient: false,
    say: (s) =>
      `Refused to connect to ${s.host} over plain http://: the name does not resolve to this computer. Use https:// for a portal on another machine.`,
  },
};
Object.assign(
  RULES,
  Object.fromEntries(Object.entries(CERTIFICATES).map(([code, detail]) => [code, secure(detail, true)])),
);

const BODY_RULES: Record<string, Rule> = {
  UND_ERR_SOCKET: cutOff,
  ECONNRESET: cutOff,
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: cutOff,
  UND_ERR_ABORTED: cutOff,
  EPIPE: cutOff,
};

/** Where the code of a failure lives: on it, or on a cause or first aggregated error (bounded walk). */
function findCode(err: unknown): { code: string | undefined; at: Record<string, unknown> | undefined } {
  const seen = new Set<unknown>();
  let cur: unknown = err;
  for (let i = 0; i < 5 && cur && typeof cur === 'object' && !seen.has(cur); i++) {
    seen.add(cur);
    const o = cur as Record<string, unknown>;
    if (typeof o.code === 'string' && o.code !== 'UND_ERR' && o.code !== 'ERR_ASSERTION')
      return { code: o.code, at: o };
    cur = Array.isArray(o.errors) && o.errors.length > 0 ? o.errors[0] : o.cause;
  }
  return { code: undefined, at: undefined };
}

/** The table's key for a code: families (TLS, HTTP parser, proxy answers) share one row. */
function ruleKey(code: string, message: string): string {
  if (CERTIFICATES[code]) return code;
  if (
    code === 'EPROTO' ||
    code.startsWith('ERR_TLS_') ||
    code.startsWith('ERR_SSL_') ||
    /certificate|SSL routines/i.test(message)
  )
    return 'TLS';
  if (code.startsWith('HPE_')) return 'HPE';
  if (code === 'UND_ERR_ABORTED' && /^Proxy response/.test(message)) return 'PROXY_REFUSED';
  if (code === 'UND_ERR_INVALID_ARG' && /Proxy Authentication Required/.test(message)) return 'PROXY_AUTH';
  return code;
}

/** True when the failing connection was the proxy's (its host name or port), so the message names the proxy. */
function failedAtProxy(at: Record<string, unknown> | undefined, proxyHost: string | undefined): boolean {
  if (!at || !proxyHost) return false;
  const proxy = new URL(`http://${proxyHost}`);
  if (typeof at.hostname === 'string' && at.hostname.toLowerCase() === proxy.hostname.toLowerCase()) return true;
  return (
    typeof at.port === 'number' &&
    proxy.port !== '' &&
    at.port === Number(proxy.port) &&
    (typeof at.address !== 'string' || at.address === proxy.hostname || !/[a-z]/i.test(proxy.hostname))
  );
}

function fromSignal(ctx: FailureContext): ClassifiedFailure {
  const reason: unknown = ctx.signal?.reason;
  if (reason instanceof Error && reason.name === 'TimeoutError') {
    return {
      error: new PortalError({
        kind: 'timeout',
        endpoint: ctx.endpoint,
        code: 'TimeoutError',
        message: `${ctx.host} did not answer in time (the caller's time limit ran out).`,
      }),
      neverSent: false,
      transient: false,
    };
  }
  return {
    error: new PortalError({
      kind: 'cancelled',
      endpoint: ctx.endpoint,
      code: ERROR_CODES.cancelled,
      message: 'The request was cancelled.',
    }),
    neverSent: false,
    transient: false,
  };
}

export function classifyFailure(err: unknown, ctx: FailureContext): ClassifiedFailure {
  if (err instanceof PortalError) {
    return { error: err.endpoint ? err : err.withEndpoint(ctx.endpoint), neverSent: false, transient: false };
  }
  if (ctx.signal?.aborted) return fromSignal(ctx);
  const found = findCode(err);
  const code = found.code ?? 'UNKNOWN';
  const key = ruleKey(code, errorMessage(err));
  const rule = (ctx.duringBody ? BODY_RULES[key] : undefined) ?? RULES[key] ?? (RULES.UNKNOWN as Rule);
  const atProxy = failedAtProxy(found.at, ctx.proxyHost);
  const said: Said = {
    host: ctx.host,
    through: ctx.proxyHost ? ` through the proxy ${ctx.proxyHost}` : '',
    fix: ctx.proxyHost
      ? 'Check the portal URL and the proxy settings (http.proxy, HTTPS_PROXY).'
      : 'Check the portal URL and your network or proxy.',
    target: atProxy ? `the proxy ${ctx.proxyHost ?? ''} (for ${ctx.host})` : ctx.host,
    ctx,
  };
  return {
    error: new PortalError({
      kind: rule.kind,
      endpoint: ctx.endpoint,
      code: rule.code ?? (key === 'TLS' || key === 'HPE' ? code : key),
      message: rule.say(said),
    }),
    neverSent: rule.neverSent,
    transient: rule.transient,
  };
}
