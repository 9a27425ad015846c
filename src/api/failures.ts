/**
 * Failure classification: what a low-level failure (a socket error, a timeout, a TLS alert, a body cut off) means
 * for the caller and for the retry policy. One table row per failure code: the error kind, whether the request
 * provably never left this machine (`neverSent`: safe to repeat any method), whether it is worth repeating an
 * idempotent request (`transient`), and the message a person reads.
 */
import * as l10n from '@vscode/l10n';
import { ERROR_CODES, PortalError, errorMessage, type PortalErrorKind } from './errors';

interface FailureContext {
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

interface ClassifiedFailure {
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

// Wordings are functions, called when a failure is described: the tables are built before the bundle is loaded.
type Words = () => string;

const unreachable = (reason: Words, neverSent: boolean): Rule => ({
  kind: 'network',
  neverSent,
  transient: true,
  say: (s) => l10n.t('Could not reach {0} ({1}). {2}', s.target, reason(), s.fix),
});
const cutOff: Rule = {
  kind: 'invalid-response',
  neverSent: false,
  transient: true,
  say: (s) =>
    l10n.t(
      'The answer from {0} ended before it was complete (the connection was closed mid-response). Try again.',
      s.host,
    ),
};
const secure = (detail: Words, neverSent: boolean): Rule => ({
  kind: 'tls',
  neverSent,
  transient: false,
  say: (s) =>
    l10n.t(
      'Could not connect securely to {0}: {1}. If your network inspects HTTPS, add its certificate authority or check http.proxyStrictSSL.',
      s.host,
      detail(),
    ),
});
const timedOut = (what: (s: Said) => string, neverSent: boolean): Rule => ({
  kind: 'timeout',
  neverSent,
  transient: true,
  say: (s) => l10n.t('{0}. The portal may be slow or unreachable; try again.', what(s)),
});
const closed: Rule = {
  kind: 'cancelled',
  neverSent: true,
  transient: false,
  say: () => l10n.t('The portal connection was closed.'),
};

/** "60 s", "400 ms": durations as a person reads them in a message. */
function formatDuration(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${Math.round(ms)} ms`;
}

/** "32 MB", "512 KB": sizes as a person reads them in a message. */
function formatSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round(bytes / (1024 * 1024))} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/** Certificate checks fail in the handshake, before a byte of the request is written. */
const expired: Words = () => l10n.t('the certificate has expired');
const otherHost: Words = () => l10n.t('the certificate is for another host name');
const selfSigned: Words = () => l10n.t('the certificate is self-signed and not trusted');
const untrustedAuthority: Words = () =>
  l10n.t('the certificate is signed by an authority this computer does not trust');
const notSetUp: Words = () => l10n.t('the secure connection could not be set up');
const CERTIFICATES: Record<string, Words> = {
  CERT_HAS_EXPIRED: expired,
  ERR_TLS_CERT_ALTNAME_INVALID: otherHost,
  HOSTNAME_MISMATCH: otherHost,
  DEPTH_ZERO_SELF_SIGNED_CERT: selfSigned,
  SELF_SIGNED_CERT_IN_CHAIN: selfSigned,
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: untrustedAuthority,
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: untrustedAuthority,
  CERT_NOT_YET_VALID: notSetUp,
  CERT_REVOKED: notSetUp,
  CERT_UNTRUSTED: notSetUp,
  CERT_SIGNATURE_FAILURE: notSetUp,
  UNABLE_TO_GET_ISSUER_CERT: notSetUp,
  UND_ERR_PRX_TLS: notSetUp,
};

/** code → what it means. Codes met while the body streams have their own table below. */
const RULES: Record<string, Rule> = {
  ECONNREFUSED: unreachable(() => l10n.t('connection refused'), true),
  ENOTFOUND: unreachable(() => l10n.t('host not found'), true),
  EAI_AGAIN: unreachable(() => l10n.t('name lookup failed'), true),
  EAI_FAIL: unreachable(() => l10n.t('name lookup failed'), true),
  EAI_NONAME: unreachable(() => l10n.t('host not found'), true),
  EHOSTUNREACH: unreachable(() => l10n.t('host unreachable'), true),
  ENETUNREACH: unreachable(() => l10n.t('network unreachable'), true),
  EADDRNOTAVAIL: unreachable(() => l10n.t('address not available'), true),
  UND_ERR_PROXY_CONNECT: unreachable(() => l10n.t('the proxy could not connect'), true),
  ECONNRESET: unreachable(() => l10n.t('the connection was reset'), false),
  EPIPE: unreachable(() => l10n.t('the connection was closed'), false),
  UND_ERR_SOCKET: unreachable(() => l10n.t('the connection was closed'), false),
  UNKNOWN: unreachable(() => l10n.t('network error'), false),
  UND_ERR_CONNECT_TIMEOUT: timedOut((s) => l10n.t('Could not connect to {0}{1} in time', s.host, s.through), true),
  UND_ERR_HEADERS_TIMEOUT: timedOut((s) => l10n.t('{0} did not answer in time', s.host), false),
  ETIMEDOUT: timedOut((s) => l10n.t('{0} did not answer in time', s.host), false),
  UND_ERR_BODY_TIMEOUT: timedOut((s) => l10n.t('{0} stopped sending its answer', s.host), false),
  [ERROR_CODES.deadline]: timedOut(
    (s) =>
      l10n.t(
        '{0} took longer than {1} to send its whole answer (the time limit for one request)',
        s.host,
        formatDuration(s.ctx.deadlineMs ?? 0),
      ),
    false,
  ),
  // Other TLS failures (EPROTO, SSL routines) can strike a reused connection mid-request, so a POST that met one
  // must not be assumed unsent.
  TLS: secure(notSetUp, false),
  HPE: {
    kind: 'invalid-response',
    neverSent: false,
    transient: false,
    say: (s) =>
      l10n.t(
        'The server at {0} did not answer with valid HTTP; it is not a portal API (is the scheme http/https right?).',
        s.host,
      ),
  },
  PROXY_REFUSED: {
    kind: 'network',
    neverSent: true,
    transient: false,
    say: (s) => l10n.t('The proxy {0} refused to connect to {1}. {2}', s.ctx.proxyHost ?? '', s.host, s.fix),
  },
  PROXY_AUTH: {
    kind: 'network',
    neverSent: true,
    transient: false,
    say: (s) =>
      l10n.t(
        'The proxy {0} asks for a user name and password. Put them in the proxy URL (http.proxy or HTTPS_PROXY).',
        s.ctx.proxyHost ?? '',
      ),
  },
  UND_ERR_DESTROYED: closed,
  UND_ERR_CLOSED: closed,
  UND_ERR_RES_EXCEEDED_MAX_SIZE: {
    kind: 'invalid-response',
    code: ERROR_CODES.responseTooLarge,
    neverSent: false,
    transient: false,
    say: (s) =>
      l10n.t(
        "The portal sent an answer larger than {0} for {1}; the extension stopped reading it. Ask for less at once (a smaller page or a filter), or ask the portal's administrator why the answer is so large.",
        formatSize(s.ctx.maxJsonBytes ?? 0),
        s.ctx.endpoint,
      ),
  },
  [ERROR_CODES.notLoopback]: {
    kind: 'network',
    neverSent: true,
    transient: false,
    say: (s) =>
      l10n.t(
        'Refused to connect to {0} over plain http://: the name does not resolve to this computer. Use https:// for a portal on another machine.',
        s.host,
      ),
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
        message: l10n.t("{0} did not answer in time (the caller's time limit ran out).", ctx.host),
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
      message: l10n.t('The request was cancelled.'),
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
    through: ctx.proxyHost ? l10n.t(' through the proxy {0}', ctx.proxyHost) : '',
    fix: ctx.proxyHost
      ? l10n.t('Check the portal URL and the proxy settings (http.proxy, HTTPS_PROXY).')
      : l10n.t('Check the portal URL and your network or proxy.'),
    target: atProxy ? l10n.t('the proxy {0} (for {1})', ctx.proxyHost ?? '', ctx.host) : ctx.host,
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
