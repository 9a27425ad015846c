/**
 * HTTP transport: one undici dispatcher per client (a keep-alive Pool for the portal's origin, or a ProxyAgent),
 * URL policy (HTTPS except loopback), and the translation of low-level failures into PortalErrors.
 *
 * Redirects are never followed. undici does not follow them by default, and we keep it that way: a portal API
 * does not redirect, following one could carry the Authorization header to another origin, and a redirect is
 * the typical sign that the URL points at a web page (login page, HTTPS upgrade) rather than the API. A 3xx
 * becomes an 'invalid-response' error naming where it pointed (see client.ts).
 */
import { Pool, ProxyAgent, type Dispatcher } from 'undici';
import { PortalError } from './errors';

export interface ProxyOptions {
  /** http://[user:pass@]host:port of the proxy (https:// proxies work too). */
  url: string;
  /** Verify certificates of the proxy and of the portal behind it (VS Code's http.proxyStrictSSL). Default true. */
  strictSSL?: boolean;
  /** Hosts that bypass the proxy: "host", ".domain", "*.domain", "host:port", IPv4 CIDR "10.0.0.0/8", or "*". */
  noProxy?: string[];
}

export interface TransportOptions {
  baseUrl: string;
  maxConcurrent: number;
  connectTimeoutMs: number;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
  proxy?: ProxyOptions | undefined;
  /** Verify the portal's certificate (default true). */
  strictSSL?: boolean | undefined;
  /** Extra certificate authorities (PEM) to trust. */
  ca?: string | string[] | undefined;
}

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface RawRequest {
  method: HttpMethod;
  /** Path with query, already prefixed with the base path. */
  path: string;
  headers: Record<string, string>;
  body?: string | undefined;
  signal?: AbortSignal | undefined;
}

const CONFIG_ENDPOINT = 'configure';

export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  if (h === '::1' || h === '0:0:0:0:0:0:0:1') return true;
  if (/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h)) return true;
  if (/^::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h)) return true;
  return false;
}

export interface ParsedBase {
  origin: string;
  /** Base path without trailing slash ('' for the root). */
  basePath: string;
  /** host[:port] for messages. */
  host: string;
  protocol: 'http:' | 'https:';
  hostname: string;
  port: number;
}

/** Validates a portal URL: http(s) only, HTTPS unless loopback, no embedded credentials. */
export function parseBaseUrl(baseUrl: string): ParsedBase {
  let url: URL;
  try {
    url = new URL(baseUrl.trim());
  } catch {
    throw new PortalError({
      kind: 'invalid-input',
      endpoint: CONFIG_ENDPOINT,
      message: `"${baseUrl}" is not a valid portal URL. Use the form https://portal.example.com.`,
    });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new PortalError({
      kind: 'invalid-input',
      endpoint: CONFIG_ENDPOINT,
      message: `The portal URL must start with https:// (got ${url.protocol}//).`,
    });
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new PortalError({
      kind: 'invalid-input',
      endpoint: CONFIG_ENDPOINT,
      message: `The portal URL must use https://. Plain http:// is only allowed for this computer (localhost, 127.0.0.1, ::1), not for ${url.host}.`,
    });
  }
  if (url.username || url.password) {
    throw new PortalError({
      kind: 'invalid-input',
      endpoint: CONFIG_ENDPOINT,
      message: 'The portal URL must not contain a user name or password; sign in instead.',
    });
  }
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  return {
    origin: url.origin,
    basePath: url.pathname.replace(/\/+$/, ''),
    host: url.host,
    protocol: url.protocol,
    hostname: url.hostname.replace(/^\[|\]$/g, ''),
    port,
  };
}

function ipv4ToInt(ip: string): number | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(ip);
  if (!m) return undefined;
  let n = 0;
  for (let i = 1; i <= 4; i++) {
    const part = Number(m[i]);
    if (part > 255) return undefined;
    n = n * 256 + part;
  }
  return n;
}

/** True when `hostname:port` must not go through the proxy according to a NO_PROXY-style list. */
export function bypassesProxy(hostname: string, port: number, noProxy: readonly string[] | undefined): boolean {
  if (!noProxy) return false;
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  for (const raw of noProxy) {
    let entry = raw.trim().toLowerCase();
    if (!entry) continue;
    if (entry === '*') return true;
    const cidr = /^([\d.]+)\/(\d{1,2})$/.exec(entry);
    if (cidr) {
      const base = ipv4ToInt(cidr[1] ?? '');
      const ip = ipv4ToInt(host);
      const bits = Number(cidr[2]);
      if (base !== undefined && ip !== undefined && bits <= 32) {
        const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
        if (((base & mask) >>> 0) === ((ip & mask) >>> 0)) return true;
      }
      continue;
    }
    let entryPort: number | undefined;
    const withPort = /^(.*):(\d+)$/.exec(entry);
    if (withPort && !entry.startsWith('[') && (withPort[1] ?? '').indexOf(':') === -1) {
      entry = withPort[1] ?? '';
      entryPort = Number(withPort[2]);
    } else if (entry.startsWith('[')) {
      const v6 = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
      if (v6) {
        entry = v6[1] ?? '';
        entryPort = v6[2] ? Number(v6[2]) : undefined;
      }
    }
    if (entryPort !== undefined && entryPort !== port) continue;
    if (entry.startsWith('*.')) entry = entry.slice(1);
    if (entry.startsWith('.')) {
      if (host === entry.slice(1) || host.endsWith(entry)) return true;
    } else if (host === entry || host.endsWith(`.${entry}`)) {
      return true;
    }
  }
  return false;
}

/**
 * Picks the proxy for a portal from VS Code's `http.proxy` setting first, then the usual environment variables
 * (HTTPS_PROXY / HTTP_PROXY / ALL_PROXY, NO_PROXY), in either case. Returns undefined for a direct connection.
 */
export function resolveProxy(input: {
  baseUrl: string;
  httpProxy?: string | undefined;
  strictSSL?: boolean | undefined;
  noProxy?: readonly string[] | undefined;
  env?: Readonly<Record<string, string | undefined>> | undefined;
}): ProxyOptions | undefined {
  const env = input.env ?? {};
  const pick = (...names: string[]): string | undefined => {
    for (const n of names) {
      const v = env[n] ?? env[n.toLowerCase()];
      if (v && v.trim()) return v.trim();
    }
    return undefined;
  };
  let target: URL;
  try {
    target = new URL(input.baseUrl);
  } catch {
    return undefined;
  }
  const url = input.httpProxy?.trim() ||
    (target.protocol === 'https:' ? pick('HTTPS_PROXY', 'HTTP_PROXY', 'ALL_PROXY') : pick('HTTP_PROXY', 'ALL_PROXY'));
  if (!url) return undefined;
  const noProxy = [
    ...(input.noProxy ?? []),
    ...(pick('NO_PROXY') ?? '').split(',').map((s) => s.trim()).filter(Boolean),
  ];
  const port = target.port ? Number(target.port) : target.protocol === 'https:' ? 443 : 80;
  if (bypassesProxy(target.hostname, port, noProxy)) return undefined;
  return { url: /^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url : `http://${url}`, strictSSL: input.strictSSL ?? true, noProxy };
}

export class Transport {
  readonly base: ParsedBase;
  readonly viaProxy: boolean;
  /** host:port of the proxy, for messages (never its credentials). */
  readonly proxyHost: string | undefined;
  private readonly dispatcher: Dispatcher;
  private readonly headersTimeoutMs: number;
  private readonly bodyTimeoutMs: number;

  constructor(options: TransportOptions) {
    this.base = parseBaseUrl(options.baseUrl);
    this.headersTimeoutMs = options.headersTimeoutMs;
    this.bodyTimeoutMs = options.bodyTimeoutMs;
    const strict = options.strictSSL ?? true;
    const tls = { rejectUnauthorized: strict, ...(options.ca ? { ca: options.ca } : {}) };
    const proxy = options.proxy && !bypassesProxy(this.base.hostname, this.base.port, options.proxy.noProxy)
      ? options.proxy
      : undefined;
    if (proxy) {
      let proxyUrl: URL;
      try {
        proxyUrl = new URL(proxy.url);
      } catch {
        throw new PortalError({
          kind: 'invalid-input',
          endpoint: CONFIG_ENDPOINT,
          message: 'The proxy URL is not valid. Check the http.proxy setting or the HTTPS_PROXY variable.',
        });
      }
      const proxyStrict = proxy.strictSSL ?? strict;
      this.viaProxy = true;
      this.proxyHost = proxyUrl.host;
      this.dispatcher = new ProxyAgent({
        uri: proxy.url,
        // An http:// portal (loopback only) is forwarded with an absolute URI; https:// is always tunnelled (CONNECT).
        proxyTunnel: false,
        connections: options.maxConcurrent,
        connectTimeout: options.connectTimeoutMs,
        headersTimeout: options.headersTimeoutMs,
        bodyTimeout: options.bodyTimeoutMs,
        keepAliveTimeout: 10_000,
        requestTls: { ...tls, rejectUnauthorized: proxyStrict },
        proxyTls: { rejectUnauthorized: proxyStrict },
      });
    } else {
      this.viaProxy = false;
      this.proxyHost = undefined;
      this.dispatcher = new Pool(this.base.origin, {
        connections: options.maxConcurrent,
        connectTimeout: options.connectTimeoutMs,
        headersTimeout: options.headersTimeoutMs,
        bodyTimeout: options.bodyTimeoutMs,
        keepAliveTimeout: 10_000,
        connect: tls,
      });
    }
  }

  request(req: RawRequest): Promise<Dispatcher.ResponseData> {
    return this.dispatcher.request({
      origin: this.base.origin,
      path: req.path,
      method: req.method,
      headers: req.headers,
      body: req.body ?? null,
      signal: req.signal ?? null,
      headersTimeout: this.headersTimeoutMs,
      bodyTimeout: this.bodyTimeoutMs,
    });
  }

  async close(): Promise<void> {
    await this.dispatcher.destroy();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Failure classification

/** Certificate checks fail in the handshake, before a byte of the request is written. */
const CERTIFICATE_CODES = new Set([
  'CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID', 'CERT_REVOKED', 'CERT_UNTRUSTED', 'CERT_SIGNATURE_FAILURE',
  'DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'ERR_TLS_CERT_ALTNAME_INVALID',
  'HOSTNAME_MISMATCH', 'UND_ERR_PRX_TLS',
]);
/** Failures that happen before a byte of the request is written: safe to retry any method. */
const NEVER_SENT_CODES = new Set([
  'ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME', 'EHOSTUNREACH', 'ENETUNREACH',
  'EADDRNOTAVAIL', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_PROXY_CONNECT',
]);

export interface FailureContext {
  endpoint: string;
  host: string;
  proxyHost?: string | undefined;
  signal?: AbortSignal | undefined;
  /** The response status had arrived (failure while reading the body). */
  duringBody?: boolean;
}

export interface ClassifiedFailure {
  error: PortalError;
  /** The request provably never reached the server. */
  neverSent: boolean;
  /** A transient failure worth retrying for an idempotent request. */
  transient: boolean;
}

function errorCode(err: unknown): string | undefined {
  const seen = new Set<unknown>();
  let cur: unknown = err;
  // Bounded walk over cause / AggregateError chains.
  for (let i = 0; i < 5 && cur && typeof cur === 'object' && !seen.has(cur); i++) {
    seen.add(cur);
    const o = cur as { code?: unknown; errors?: unknown; cause?: unknown };
    if (typeof o.code === 'string' && o.code !== 'UND_ERR' && o.code !== 'ERR_ASSERTION') return o.code;
    if (Array.isArray(o.errors) && o.errors.length > 0) cur = o.errors[0];
    else cur = o.cause;
  }
  return undefined;
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : typeof err === 'string' ? err : '';
}

export function classifyFailure(err: unknown, ctx: FailureContext): ClassifiedFailure {
  if (err instanceof PortalError) {
    return { error: err.endpoint ? err : err.withEndpoint(ctx.endpoint), neverSent: false, transient: false };
  }
  const { endpoint, host } = ctx;
  if (ctx.signal?.aborted) {
    const reason: unknown = ctx.signal.reason;
    if (reason instanceof Error && reason.name === 'TimeoutError') {
      return {
        error: new PortalError({ kind: 'timeout', endpoint, code: 'TimeoutError', message: `${host} did not answer in time (the caller's time limit ran out).` }),
        neverSent: false,
        transient: false,
      };
    }
    return {
      error: new PortalError({ kind: 'cancelled', endpoint, code: 'ABORTED', message: 'The request was cancelled.' }),
      neverSent: false,
      transient: false,
    };
  }
  const code = errorCode(err) ?? 'UNKNOWN';
  const message = errorMessage(err);
  const through = ctx.proxyHost ? ` through the proxy ${ctx.proxyHost}` : '';
  const fix = ctx.proxyHost
    ? 'Check the portal URL and the proxy settings (http.proxy, HTTPS_PROXY).'
    : 'Check the portal URL and your network or proxy.';

  if (CERTIFICATE_CODES.has(code) || code === 'EPROTO' || code.startsWith('ERR_TLS_') || code.startsWith('ERR_SSL_') || /certificate|SSL routines/i.test(message)) {
    const detail = code === 'ERR_TLS_CERT_ALTNAME_INVALID' || code === 'HOSTNAME_MISMATCH'
      ? 'the certificate is for another host name'
      : code === 'CERT_HAS_EXPIRED'
        ? 'the certificate has expired'
        : code === 'DEPTH_ZERO_SELF_SIGNED_CERT' || code === 'SELF_SIGNED_CERT_IN_CHAIN'
          ? 'the certificate is self-signed and not trusted'
          : code === 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY' || code === 'UNABLE_TO_VERIFY_LEAF_SIGNATURE'
            ? 'the certificate is signed by an authority this computer does not trust'
            : 'the secure connection could not be set up';
    return {
      error: new PortalError({
        kind: 'tls',
        endpoint,
        code,
        message: `Could not connect securely to ${host}: ${detail}. If your network inspects HTTPS, add its certificate authority or check http.proxyStrictSSL.`,
      }),
      // Other TLS failures (EPROTO, SSL routines) can strike a reused connection mid-request, so a POST
      // that met one must not be assumed unsent.
      neverSent: CERTIFICATE_CODES.has(code),
      transient: false,
    };
  }
  if (code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'ETIMEDOUT') {
    const what = code === 'UND_ERR_CONNECT_TIMEOUT'
      ? `Could not connect to ${host}${through} in time`
      : code === 'UND_ERR_BODY_TIMEOUT'
        ? `${host} stopped sending its answer`
        : `${host} did not answer in time`;
    return {
      error: new PortalError({ kind: 'timeout', endpoint, code, message: `${what}. The portal may be slow or unreachable; try again.` }),
      neverSent: code === 'UND_ERR_CONNECT_TIMEOUT',
      transient: true,
    };
  }
  if (code.startsWith('HPE_')) {
    return {
      error: new PortalError({
        kind: 'invalid-response',
        endpoint,
        code,
        message: `The server at ${host} did not answer with valid HTTP; it is not a portal API (is the scheme http/https right?).`,
      }),
      neverSent: false,
      transient: false,
    };
  }
  if (code === 'UND_ERR_ABORTED' && /^Proxy response/.test(message)) {
    return {
      error: new PortalError({ kind: 'network', endpoint, code: 'PROXY_REFUSED', message: `The proxy ${ctx.proxyHost ?? ''} refused to connect to ${host}. ${fix}` }),
      neverSent: true,
      transient: false,
    };
  }
  if (code === 'UND_ERR_DESTROYED' || code === 'UND_ERR_CLOSED') {
    return {
      error: new PortalError({ kind: 'cancelled', endpoint, code, message: 'The portal connection was closed.' }),
      neverSent: true,
      transient: false,
    };
  }
  if (ctx.duringBody && (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' || code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH' || code === 'UND_ERR_ABORTED' || code === 'EPIPE')) {
    return {
      error: new PortalError({
        kind: 'invalid-response',
        endpoint,
        code,
        message: `The answer from ${host} ended before it was complete (the connection was closed mid-response). Try again.`,
      }),
      neverSent: false,
      transient: true,
    };
  }
  const reasons: Record<string, string> = {
    ECONNREFUSED: 'connection refused',
    ENOTFOUND: 'host not found',
    EAI_AGAIN: 'name lookup failed',
    EAI_FAIL: 'name lookup failed',
    EAI_NONAME: 'host not found',
    EHOSTUNREACH: 'host unreachable',
    ENETUNREACH: 'network unreachable',
    EADDRNOTAVAIL: 'address not available',
    ECONNRESET: 'the connection was reset',
    EPIPE: 'the connection was closed',
    UND_ERR_SOCKET: 'the connection was closed',
  };
  const reason = reasons[code] ?? 'network error';
  const neverSent = NEVER_SENT_CODES.has(code);
  const target = ctx.proxyHost && neverSent ? `the proxy ${ctx.proxyHost} (for ${host})` : host;
  return {
    error: new PortalError({ kind: 'network', endpoint, code, message: `Could not reach ${target} (${reason}). ${fix}` }),
    neverSent,
    transient: true,
  };
}
