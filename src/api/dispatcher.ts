/**
 * The dispatcher: undici connection pools for one portal's origin, direct or through a proxy.
 *
 * - Two pools, created as needed: one for JSON calls, whose answers undici stops reading past `maxJsonBytes`
 *   (`maxResponseSize`: the socket is destroyed, so memory stays bounded however much a server sends), and one for
 *   downloads, which stream without a size limit.
 * - With a proxy, undici's EnvHttpProxyAgent decides per request whether the NO_PROXY list lets it go direct.
 *   Loopback portals never get a proxy (see proxy.ts), and an http:// portal is always loopback (url.ts), so what
 *   goes through a proxy is always https:// tunnelled with CONNECT.
 * - Redirects are never followed. undici does not follow them by default, and we keep it that way: a portal API
 *   does not redirect, following one could carry the Authorization header to another origin, and a redirect is
 *   the typical sign that the URL points at a web page (login page, HTTPS upgrade) rather than the API. A 3xx
 *   becomes an 'invalid-response' error naming where it pointed (see http.ts).
 */
import type { Readable } from 'node:stream';
import * as l10n from '@vscode/l10n';
import { EnvHttpProxyAgent, Pool, type Dispatcher } from 'undici';
import { PortalError } from './errors';
import type { ProxyOptions } from './proxy';
import {
  isLoopbackHost,
  isLoopbackName,
  loopbackOnlyLookup,
  parseBaseUrl,
  type LookupFunction,
  type ParsedBase,
} from './url';

interface TransportOptions {
  baseUrl: string;
  maxConcurrent: number;
  connectTimeoutMs: number;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
  /** JSON answers are cut off past this many bytes. */
  maxJsonBytes: number;
  proxy?: ProxyOptions | undefined;
  /**
   * Extra certificate authorities (PEM) to trust for the portal, in place of Node's default store. Left unset, the
   * default store applies (Node's roots and NODE_EXTRA_CA_CERTS), and VS Code's extension host adds the system's
   * certificates to it where its settings say so.
   */
  ca?: string | string[] | undefined;
  /** Name resolution for direct connections (default dns.lookup). */
  lookup?: LookupFunction | undefined;
}

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

interface RawRequest {
  method: HttpMethod;
  /** Path with query, already prefixed with the base path. */
  path: string;
  headers: Record<string, string>;
  /** A function: called for each request, so every attempt sends a stream of its own. */
  body?: string | Buffer | (() => Readable) | undefined;
  signal?: AbortSignal | undefined;
  /** Answered as a stream from the pool without a size limit (downloads). */
  stream?: boolean;
}

function proxyError(): PortalError {
  return new PortalError({
    kind: 'invalid-input',
    endpoint: 'configure',
    message: l10n.t('The proxy URL is not valid. Check the http.proxy setting or the HTTPS_PROXY variable.'),
  });
}

export class Transport {
  readonly base: ParsedBase;
  /** host:port of the proxy configured for this portal, for messages (never its credentials). */
  readonly proxyHost: string | undefined;
  private readonly options: TransportOptions;
  private readonly proxy: ProxyOptions | undefined;
  private readonly json: Dispatcher;
  private stream: Dispatcher | undefined;

  constructor(options: TransportOptions) {
    this.base = parseBaseUrl(options.baseUrl);
    this.options = options;
    this.proxy = options.proxy && !isLoopbackHost(this.base.hostname) ? options.proxy : undefined;
    if (this.proxy) {
      try {
        this.proxyHost = new URL(this.proxy.url).host;
      } catch {
        throw proxyError();
      }
    }
    this.json = this.create(options.maxJsonBytes);
  }

  /** Sends one request; `headersTimeout` may be lower than the client's (the deadline of a JSON call). */
  request(req: RawRequest, headersTimeout = this.options.headersTimeoutMs): Promise<Dispatcher.ResponseData> {
    const dispatcher = req.stream ? (this.stream ??= this.create(-1)) : this.json;
    return dispatcher.request({
      origin: this.base.origin,
      path: req.path,
      method: req.method,
      headers: req.headers,
      body: typeof req.body === 'function' ? req.body() : (req.body ?? null),
      signal: req.signal ?? null,
      headersTimeout,
      bodyTimeout: this.options.bodyTimeoutMs,
    });
  }

  async close(): Promise<void> {
    await Promise.all([this.json.destroy(), this.stream?.destroy()]);
  }

  private create(maxResponseSize: number): Dispatcher {
    const o = this.options;
    // The portal's certificate is always verified: no setting turns that off (http.proxyStrictSSL is the proxy's).
    const tls = { rejectUnauthorized: true, ...(o.ca ? { ca: o.ca } : {}) };
    const lookup =
      this.base.protocol === 'http:' && isLoopbackName(this.base.hostname) ? loopbackOnlyLookup(o.lookup) : o.lookup;
    const common = {
      connections: o.maxConcurrent,
      connectTimeout: o.connectTimeoutMs,
      headersTimeout: o.headersTimeoutMs,
      bodyTimeout: o.bodyTimeoutMs,
      keepAliveTimeout: 10_000,
      maxResponseSize,
      connect: { ...tls, ...(lookup ? { lookup } : {}) },
    };
    const proxy = this.proxy;
    if (!proxy) return new Pool(this.base.origin, common);
    try {
      // Every input is given explicitly, so undici reads nothing from process.env: resolveProxy already did.
      return new EnvHttpProxyAgent({
        ...common,
        httpProxy: proxy.url,
        httpsProxy: proxy.url,
        noProxy: (proxy.noProxy ?? []).join(','),
        // Through the tunnel, TLS is end to end with the portal; only the hop to an https:// proxy is the proxy's.
        requestTls: tls,
        proxyTls: { rejectUnauthorized: proxy.strictSSL ?? true },
      });
    } catch {
      throw proxyError();
    }
  }
}
