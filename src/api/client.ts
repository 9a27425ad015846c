/**
 * PortalClient: the one way the extension talks to a portal.
 *
 * Every call goes through `exchange()`: token (single-flight, see auth.ts) → slot in the rate budget and
 * concurrency cap (scheduler.ts) → undici (transport.ts) → retry policy → PortalError mapping → one redacted log
 * line per attempt.
 *
 * Retry policy, in one place:
 * - 401 on an authenticated call: renew the token once (shared by every concurrent caller) and repeat; a second 401
 *   means the portal refuses a fresh token: 'signed-out'.
 * - 429 (any method: the request was not processed) and 503 (GET only): wait Retry-After (the whole client holds
 *   off, not just this call), at most `maxRetryAfterMs`, up to `rateLimitAttempts` tries.
 * - Network errors, timeouts, truncated bodies and other 5xx: jittered exponential backoff, GET only, up to
 *   `attempts` tries. POST, PATCH and DELETE are repeated only when the failure proves nothing left this machine
 *   (connection refused, name lookup failure, connect timeout, TLS handshake failure).
 */
import { Readable } from 'node:stream';
import type { ReadableStream as NodeWebReadableStream } from 'node:stream/web';
import type { Dispatcher } from 'undici';
import { Session, TOKEN_ENDPOINT, type Credentials, type TokenResponse, type TokenSet, type TokenStore } from './auth';
import { PortalError, type PortalErrorKind } from './errors';
import {
  buildQuery, describeContentType, header, httpError, notAnApi, parseContentDisposition, parseRetryAfter, tokenError,
  type QueryParams,
} from './http';
import { asObject, numOrNull, strOrNull } from './models/read';
import { SecretRegistry, secretValuesIn } from './redact';
import { DEFAULT_BUDGET, DEFAULT_MAX_CONCURRENT, Scheduler, type RequestBudget } from './scheduler';
import { classifyFailure, Transport, type HttpMethod, type ProxyOptions } from './transport';
import { DEFAULT_USER_AGENT } from './version';
import { createV3, type V3Api } from './endpoints/v3';
import { createV2, type V2Api } from './endpoints/v2';
import type { Application, ApplicationDraft, ApplicationDraftV2, ApplicationV2 } from './models/application';

export interface RequestLogLine {
  method: string;
  /** Path with the query redacted (secrets never appear). */
  path: string;
  status?: number;
  /** Time on the wire for this attempt. */
  ms: number;
  /** 1 for the first try. */
  attempt: number;
  /** Time spent waiting for the rate budget / concurrency cap before this attempt. */
  queuedMs?: number;
  /** The failure's message (redacted), when the attempt failed. */
  error?: string;
  errorKind?: PortalErrorKind;
}

export interface RetryOptions {
  /** Tries for GET on network errors and 5xx (and for any method when nothing was sent). Default 3. */
  attempts?: number;
  /** Tries when the portal answers 429 (or 503 for GET). Default 4. */
  rateLimitAttempts?: number;
  /** First backoff delay; doubled each retry, with jitter. Default 250 ms. */
  backoffMs?: number;
  /** Backoff ceiling. Default 4000 ms. */
  maxBackoffMs?: number;
  /** A Retry-After longer than this is not waited for: the call fails 'rate-limited' at once. Default 60 s. */
  maxRetryAfterMs?: number;
  /** Wait when a 429/503 has no Retry-After. Default 1000 ms. */
  defaultRetryAfterMs?: number;
}

export interface PortalClientOptions {
  /** e.g. https://portal.example.com (a path prefix is kept). http:// only for loopback. */
  baseUrl: string;
  /** Service name: static client id "<service>-mobile" and the service-named fields. Default 'portal'. */
  service?: string;
  /** Default 'portal-vscode/<version>'. */
  userAgent?: string;
  credentials?: Credentials;
  /** Default 2000 requests per 300 000 ms (the portal's documented limit). */
  requestBudget?: RequestBudget;
  /** Requests in flight at once (and pool connections). Default 8. */
  maxConcurrent?: number;
  /** Default 10 000 ms. */
  connectTimeoutMs?: number;
  /** Time to wait for response headers. Default 30 000 ms. */
  headersTimeoutMs?: number;
  /** Longest silence while a body streams. Default 30 000 ms. */
  bodyTimeoutMs?: number;
  proxy?: ProxyOptions;
  /** Verify the portal's TLS certificate. Default true. */
  strictSSL?: boolean;
  /** Extra trusted certificate authorities (PEM). */
  ca?: string | string[];
  /** One call per request attempt; lines are redacted. */
  log?: (line: RequestLogLine) => void;
  /** Called once when the portal stops accepting the credentials (revoked or deleted application). */
  onSignedOut?: (error: PortalError) => void;
  /** Persists tokens between sessions (e.g. in SecretStorage). */
  tokenStore?: TokenStore;
  retry?: RetryOptions;
}

export interface CallOptions {
  signal?: AbortSignal;
}

/** A download in progress. Read or destroy `body`: it holds one of the client's concurrent slots until it ends. */
export interface Download {
  body: Readable;
  contentType: string;
  /** From Content-Disposition, when given. */
  filename: string | undefined;
  /** From Content-Length, when given. */
  length: number | undefined;
  /** The same bytes as a web ReadableStream (consumes `body`). */
  toWeb(): NodeWebReadableStream<Uint8Array>;
}

/** A request as the endpoint modules describe it. */
export interface CallSpec {
  method: HttpMethod;
  /** API path, e.g. /v3/userinfo (the base URL's path prefix is added). */
  path: string;
  query?: QueryParams;
  /** JSON body. */
  body?: unknown;
  signal?: AbortSignal | undefined;
}

/** What endpoint modules use (implemented by PortalClient). */
export interface ApiContext {
  readonly service: string;
  json<T>(spec: CallSpec, parse: (json: unknown) => T): Promise<T>;
  empty(spec: CallSpec): Promise<void>;
  download(spec: CallSpec): Promise<Download>;
}

export interface Budget {
  /** Requests counted in the current window (in flight included). */
  used(): number;
  readonly limit: number;
  readonly windowMs: number;
}

export interface EnrollResult<A> {
  application: A;
  clientId: string;
  clientSecret: string;
}

interface ExchangeSpec extends CallSpec {
  /** Send the bearer token (default true). */
  auth?: boolean;
  form?: Record<string, string>;
  priority?: boolean;
  mapError?: (status: number, text: string, endpoint: string) => PortalError | undefined;
}

interface LogBase {
  method: string;
  path: string;
  attempt: number;
  queuedMs: number;
}

interface TextResult {
  status: number;
  headers: Dispatcher.ResponseData['headers'];
  text: string;
}

interface StreamResult {
  status: number;
  headers: Dispatcher.ResponseData['headers'];
  body: Readable;
}

const DEFAULTS = {
  connectTimeoutMs: 10_000,
  headersTimeoutMs: 30_000,
  bodyTimeoutMs: 30_000,
  attempts: 3,
  rateLimitAttempts: 4,
  backoffMs: 250,
  maxBackoffMs: 4_000,
  maxRetryAfterMs: 60_000,
  defaultRetryAfterMs: 1_000,
};
/** Error bodies are read up to this size (they are short JSON); the rest is discarded. */
const MAX_ERROR_BODY = 64 * 1024;

const identity = (json: unknown): unknown => json;

function cancelled(endpoint: string): PortalError {
  return new PortalError({ kind: 'cancelled', endpoint, message: 'The request was cancelled.' });
}

function sleep(ms: number, signal: AbortSignal | undefined, endpoint: string): Promise<void> {
  if (signal?.aborted) return Promise.reject(cancelled(endpoint));
  if (ms <= 0) return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(cancelled(endpoint));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

async function readText(body: Readable, limit = Number.POSITIVE_INFINITY): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    if (size < limit) chunks.push(chunk);
    size += chunk.length;
    if (size >= limit) {
      body.destroy();
      break;
    }
  }
  return Buffer.concat(chunks).toString('utf8');
}

export class PortalClient implements ApiContext {
  readonly service: string;
  readonly baseUrl: string;
  readonly userAgent: string;
  readonly budget: Budget;
  readonly v3: V3Api;
  readonly v2: V2Api;
  private readonly transport: Transport;
  private readonly scheduler: Scheduler;
  private readonly secrets = new SecretRegistry();
  private readonly session: Session;
  private readonly log: ((line: RequestLogLine) => void) | undefined;
  private readonly retry: Required<RetryOptions>;
  private readonly host: string;
  private isClosed = false;
  private closing: Promise<void> = Promise.resolve();

  constructor(options: PortalClientOptions) {
    this.service = (options.service ?? 'portal').trim() || 'portal';
    this.userAgent = options.userAgent ?? DEFAULT_USER_AGENT;
    const maxConcurrent = options.maxConcurrent ?? DEFAULT_MAX_CONCURRENT;
    this.transport = new Transport({
      baseUrl: options.baseUrl,
      maxConcurrent,
      connectTimeoutMs: options.connectTimeoutMs ?? DEFAULTS.connectTimeoutMs,
      headersTimeoutMs: options.headersTimeoutMs ?? DEFAULTS.headersTimeoutMs,
      bodyTimeoutMs: options.bodyTimeoutMs ?? DEFAULTS.bodyTimeoutMs,
      proxy: options.proxy,
      strictSSL: options.strictSSL,
      ca: options.ca,
    });
    this.baseUrl = this.transport.base.origin + this.transport.base.basePath;
    this.host = this.transport.base.host;
    this.scheduler = new Scheduler(options.requestBudget ?? DEFAULT_BUDGET, maxConcurrent);
    const scheduler = this.scheduler;
    this.budget = { used: () => scheduler.used(), limit: scheduler.limit, windowMs: scheduler.windowMs };
    this.log = options.log;
    this.retry = {
      attempts: Math.max(1, options.retry?.attempts ?? DEFAULTS.attempts),
      rateLimitAttempts: Math.max(1, options.retry?.rateLimitAttempts ?? DEFAULTS.rateLimitAttempts),
      backoffMs: Math.max(0, options.retry?.backoffMs ?? DEFAULTS.backoffMs),
      maxBackoffMs: Math.max(0, options.retry?.maxBackoffMs ?? DEFAULTS.maxBackoffMs),
      maxRetryAfterMs: Math.max(0, options.retry?.maxRetryAfterMs ?? DEFAULTS.maxRetryAfterMs),
      defaultRetryAfterMs: Math.max(0, options.retry?.defaultRetryAfterMs ?? DEFAULTS.defaultRetryAfterMs),
    };
    this.session = new Session({
      endpoint: { requestToken: (form, signal) => this.requestToken(form, signal) },
      staticClientId: `${this.service}-mobile`,
      secrets: this.secrets,
      host: this.host,
      onSignedOut: options.onSignedOut,
      tokenStore: options.tokenStore,
    }, options.credentials);
    this.v3 = createV3(this);
    this.v2 = createV2(this);
  }

  // ---- Auth -------------------------------------------------------------------------------------------------------

  /** Performs the grant now. Throws 'two-factor-required' / 'two-factor-invalid' / 'auth' / network kinds. */
  async signIn(credentials: Credentials, options: CallOptions = {}): Promise<void> {
    try {
      await this.session.signIn(credentials, options.signal);
    } catch (e) {
      throw this.scrub(e);
    }
  }

  /** Switches to client credentials (no request until the next call). */
  useClientCredentials(clientId: string, clientSecret: string): void {
    this.session.setCredentials({ kind: 'client', clientId, clientSecret });
  }

  /** Replaces the credentials (no request until the next call); clears a signed-out state. */
  setCredentials(credentials: Credentials | undefined): void {
    this.session.setCredentials(credentials);
  }

  /** Forgets credentials and tokens locally. */
  signOut(): void {
    this.session.clear();
  }

  /** The kind of credentials held ('password' until enrollment, then 'client'), or undefined. */
  get credentialKind(): Credentials['kind'] | undefined {
    return this.session.credentialKind;
  }

  /** The application's client id once client credentials are in use. */
  get clientId(): string | undefined {
    return this.session.clientId;
  }

  get isSignedOut(): boolean {
    return this.session.isSignedOut;
  }

  /**
   * After a password sign-in: creates an application (v3) with the current token, switches to its client
   * credentials (running the grant once to prove they work) and drops the password from memory.
   */
  async enrollApplication(draft: ApplicationDraft, options: CallOptions = {}): Promise<EnrollResult<Application>> {
    return this.enroll('POST /v3/applications', () => this.v3.applications.create(draft, options), options);
  }

  /** enrollApplication through v2 (POST /v2/applications). */
  async enrollApplicationV2(draft: ApplicationDraftV2, options: CallOptions = {}): Promise<EnrollResult<ApplicationV2>> {
    return this.enroll('POST /v2/applications', () => this.v2.applications.create(draft, options), options);
  }

  private async enroll<A extends { clientId: string; clientSecret?: string | null }>(
    endpoint: string, create: () => Promise<A>, options: CallOptions,
  ): Promise<EnrollResult<A>> {
    this.requirePasswordSession(endpoint);
    const application = await create();
    const { clientId, clientSecret } = application;
    if (!clientSecret) throw notAnApi(this.host, endpoint, 'the new application came back without a client secret');
    // signIn replaces the password credentials only once the new ones have worked: if the grant fails, the
    // password session stays usable and the caller can try again or delete the application.
    await this.signIn({ kind: 'client', clientId, clientSecret }, options);
    return { application, clientId, clientSecret };
  }

  private requirePasswordSession(endpoint: string): void {
    if (this.session.credentialKind !== 'password' && !this.session.hasToken) {
      throw new PortalError({ kind: 'auth', endpoint, message: 'Sign in with a user name and password before creating an application.' });
    }
  }

  /**
   * A valid access token (renewed if needed, single-flight), for callers that must hand one on, such as VS Code's
   * AuthenticationSession. Throws 'signed-out' when the portal no longer accepts the credentials.
   */
  async accessToken(options: CallOptions = {}): Promise<string> {
    try {
      return await this.session.accessToken(TOKEN_ENDPOINT, options.signal);
    } catch (e) {
      throw this.scrub(e);
    }
  }

  /** Destroys the connection pool; pending and later calls fail 'cancelled'. `closed` settles when sockets are gone. */
  close(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.scheduler.close();
    this.closing = this.transport.close().catch(() => undefined);
  }

  /** Settles once close() has released every socket (immediately if the client is open). */
  get closed(): Promise<void> {
    return this.closing;
  }

  // ---- ApiContext -------------------------------------------------------------------------------------------------

  json<T>(spec: CallSpec, parse: (json: unknown) => T): Promise<T> {
    return this.call(spec, false, (res, endpoint) => this.decode(res, endpoint, parse));
  }

  empty(spec: CallSpec): Promise<void> {
    return this.call(spec, false, () => undefined);
  }

  async download(spec: CallSpec): Promise<Download> {
    const res = await this.call(spec, true, (r) => r as StreamResult);
    const lengthHeader = header(res.headers, 'content-length');
    const length = lengthHeader !== undefined && /^\d+$/.test(lengthHeader) ? Number(lengthHeader) : undefined;
    const body = res.body;
    return {
      body,
      contentType: header(res.headers, 'content-type') ?? 'application/octet-stream',
      filename: parseContentDisposition(header(res.headers, 'content-disposition')),
      length,
      toWeb: () => Readable.toWeb(body) as NodeWebReadableStream<Uint8Array>,
    };
  }

  /** Sends any API request (for endpoints this module does not wrap yet); answers parsed JSON or undefined. */
  raw(spec: CallSpec): Promise<unknown> {
    return this.call(spec, false, (res, endpoint) => (res.text.trim() === '' ? undefined : this.decode(res, endpoint, identity)));
  }

  // ---- Internals ----------------------------------------------------------------------------------------------

  private decode<T>(res: TextResult, endpoint: string, parse: (json: unknown) => T): T {
    let json: unknown;
    try {
      json = JSON.parse(res.text);
    } catch {
      const detail = res.text.trim() === ''
        ? `an empty answer (HTTP ${res.status}), expected JSON`
        : /json/i.test(describeContentType(res.headers))
          ? 'the JSON it sent is malformed or cut off'
          : `expected JSON, got ${describeContentType(res.headers)}`;
      throw this.scrub(notAnApi(this.host, endpoint, detail, res.status));
    }
    try {
      return parse(json);
    } catch (e) {
      if (e instanceof PortalError) throw this.scrub(e.endpoint ? e : e.withEndpoint(endpoint));
      throw this.scrub(notAnApi(this.host, endpoint, `its answer could not be read: ${e instanceof Error ? e.message : String(e)}`, res.status));
    }
  }

  private async requestToken(form: Record<string, string>, signal?: AbortSignal): Promise<TokenResponse> {
    // POST with a form body rather than the spec's GET with query parameters: both are accepted, and a body keeps
    // passwords and secrets out of URLs, which servers and proxies log.
    const res = await this.call({
      method: 'POST',
      path: '/oauth/token',
      form,
      auth: false,
      priority: true,
      signal,
      mapError: (status, text, endpoint) => tokenError({ status, text, endpoint, host: this.host }),
    }, false, (r) => r as TextResult);
    return this.decode(res, TOKEN_ENDPOINT, (json) => {
      const o = asObject(json);
      const access = o ? strOrNull(o, 'access_token') : null;
      if (!o || !access) throw notAnApi(this.host, TOKEN_ENDPOINT, 'the token answer has no access_token');
      const out: TokenResponse = { access_token: access };
      const refresh = strOrNull(o, 'refresh_token');
      if (refresh) out.refresh_token = refresh;
      const type = strOrNull(o, 'token_type');
      if (type) out.token_type = type;
      const expires = numOrNull(o, 'expires_in');
      if (expires !== null) out.expires_in = expires;
      const scope = strOrNull(o, 'scope');
      if (scope) out.scope = scope;
      return out;
    });
  }

  private scrub(e: unknown): unknown {
    if (e instanceof PortalError) return e.mapTexts((t) => this.secrets.redact(t));
    return e;
  }

  /** One log line per attempt; nothing is built when nobody listens. */
  private emit(base: LogBase, started: number, status?: number, error?: PortalError): void {
    if (!this.log) return;
    try {
      const line: RequestLogLine = {
        method: base.method,
        path: this.secrets.redact(base.path),
        attempt: base.attempt,
        ms: Math.round(performance.now() - started),
      };
      if (status !== undefined) line.status = status;
      if (base.queuedMs > 0) line.queuedMs = base.queuedMs;
      if (error) {
        line.error = this.secrets.redact(error.message);
        line.errorKind = error.kind;
      }
      this.log(line);
    } catch {
      // Logging must never break a request.
    }
  }

  private backoff(n: number): number {
    const base = Math.min(this.retry.maxBackoffMs, this.retry.backoffMs * 2 ** Math.max(0, n - 1));
    return Math.round(base * (0.5 + Math.random()));
  }

  /**
   * The whole life of one call in a single async frame (this is every request's path): the exchange, then
   * `finish` (decoding) inside the same try, so every error, parse failures included, leaves through scrub().
   */
  private async call<T>(spec: ExchangeSpec, stream: boolean, finish: (res: TextResult & StreamResult, endpoint: string) => T): Promise<T> {
    const endpoint = `${spec.method} ${spec.path}`;
    try {
      // exchange answers a TextResult when !stream and a StreamResult when stream; finish knows which it asked for.
      return finish(await this.exchange(spec, endpoint, stream) as TextResult & StreamResult, endpoint);
    } catch (e) {
      throw this.scrub(e);
    }
  }

  private async exchange(spec: ExchangeSpec, endpoint: string, stream: boolean): Promise<TextResult | StreamResult> {
    const { method, signal } = spec;
    const auth = spec.auth !== false;
    if (this.isClosed) throw new PortalError({ kind: 'cancelled', endpoint, message: 'The portal connection was closed.' });
    const query = buildQuery(spec.query);
    const fullPath = `${this.transport.base.basePath}${spec.path}${query}`;
    const logPath = `${spec.path}${query}`;
    const isGet = method === 'GET';
    let body: string | undefined;
    const accept = stream ? '*/*' : 'application/json';
    const headers: Record<string, string> = auth
      ? { 'user-agent': this.userAgent, accept, authorization: '' }
      : { 'user-agent': this.userAgent, accept };
    if (spec.form) {
      body = new URLSearchParams(spec.form).toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
    } else if (spec.body !== undefined) {
      for (const secret of secretValuesIn(spec.body)) this.secrets.add(secret);
      body = JSON.stringify(spec.body);
      headers['content-type'] = 'application/json';
    }

    let attempt = 0;
    let failures = 0;
    let rateWaits = 0;
    let authRenewed = false;
    const maxLoops = this.retry.attempts + this.retry.rateLimitAttempts + 2;
    for (let loop = 0; loop < maxLoops; loop++) {
      attempt++;
      if (signal?.aborted) throw cancelled(endpoint);
      let token: string | undefined;
      if (auth) {
        token = this.session.peekToken() ?? await this.session.accessToken(endpoint, signal);
        headers.authorization = `Bearer ${token}`;
      }
      if (signal?.aborted) throw cancelled(endpoint);
      let ticket = spec.priority ? undefined : this.scheduler.tryAcquire();
      let queuedMs = 0;
      if (!ticket) {
        const queuedAt = performance.now();
        try {
          ticket = await this.scheduler.acquire(signal, spec.priority);
        } catch (e) {
          throw e instanceof PortalError ? e.withEndpoint(endpoint) : e;
        }
        queuedMs = Math.round(performance.now() - queuedAt);
      }
      const started = performance.now();
      const base: LogBase = { method, path: logPath, attempt, queuedMs };
      let res: Dispatcher.ResponseData;
      try {
        res = await this.transport.request({ method, path: fullPath, headers, body, signal });
      } catch (err) {
        ticket.release();
        const f = classifyFailure(err, { endpoint, host: this.host, proxyHost: this.transport.proxyHost, signal });
        this.emit(base, started, undefined, f.error);
        if (f.error.kind === 'cancelled') throw f.error;
        if ((isGet ? f.transient : f.neverSent) && failures + 1 < this.retry.attempts) {
          failures++;
          await sleep(this.backoff(failures), signal, endpoint);
          continue;
        }
        throw f.error;
      }
      ticket.responded();
      const status = res.statusCode;

      if (status >= 200 && status < 300) {
        if (stream) {
          const release = () => ticket.release();
          res.body.once('end', release);
          res.body.once('close', release);
          res.body.once('error', release);
          this.emit(base, started, status);
          return { status, headers: res.headers, body: res.body };
        }
        let text: string;
        try {
          // undici's own consumer: much cheaper than iterating the stream.
          text = await res.body.text();
        } catch (err) {
          ticket.release();
          const f = classifyFailure(err, { endpoint, host: this.host, proxyHost: this.transport.proxyHost, signal, duringBody: true });
          this.emit(base, started, status, f.error);
          if (f.error.kind === 'cancelled') throw f.error;
          if (isGet && f.transient && failures + 1 < this.retry.attempts) {
            failures++;
            await sleep(this.backoff(failures), signal, endpoint);
            continue;
          }
          throw f.error;
        }
        ticket.release();
        this.emit(base, started, status);
        return { status, headers: res.headers, text };
      }

      // Not 2xx: read a bounded part of the body for the server's message.
      let text = '';
      try {
        text = await readText(res.body, MAX_ERROR_BODY);
      } catch {
        // The status says enough.
      } finally {
        ticket.release();
      }
      const retryAfterMs = parseRetryAfter(header(res.headers, 'retry-after'));

      if (status === 401 && auth && token !== undefined) {
        this.emit(base, started, status);
        if (!authRenewed) {
          authRenewed = true;
          await this.session.renewAfter401(token, endpoint, signal);
          continue;
        }
        throw this.session.rejectedAfterRenewal(endpoint);
      }

      const mapped = spec.mapError?.(status, text, endpoint);
      const error = mapped ?? httpError({ status, headers: res.headers, text, endpoint, host: this.host, retryAfterMs });
      this.emit(base, started, status, error);

      if (status === 429 || (status === 503 && isGet)) {
        const wait = retryAfterMs ?? this.retry.defaultRetryAfterMs * 2 ** rateWaits;
        if (rateWaits + 1 < this.retry.rateLimitAttempts && wait <= this.retry.maxRetryAfterMs) {
          rateWaits++;
          // Everyone holds off, not just this call: the budget is shared.
          this.scheduler.pause(wait);
          continue;
        }
        if (status === 429) {
          throw new PortalError({ ...error.toInit(), kind: 'rate-limited', retryAfterMs: wait });
        }
        throw error;
      }
      if (status >= 500 && isGet && failures + 1 < this.retry.attempts) {
        failures++;
        await sleep(this.backoff(failures), signal, endpoint);
        continue;
      }
      throw error;
    }
    throw new PortalError({ kind: 'server', endpoint, message: `Gave up on ${endpoint} after ${attempt} attempts. Try again later.` });
  }
}

export type { Credentials, TokenSet, TokenStore };
