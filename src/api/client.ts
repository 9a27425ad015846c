/**
 * PortalClient: the one way the extension talks to a portal. Every call goes through the request pipeline
 * (pipeline.ts: token → rate budget and concurrency cap → undici → retry policy, one redacted log line per
 * attempt); this module holds the public surface: options, sign-in and enrollment, and the three call shapes
 * endpoint modules use (JSON, empty, download).
 *
 * Limits on what a server can make the client do:
 * - a JSON answer over `maxJsonBytes` (default 32 MiB) fails at once, 'invalid-response' with code
 *   RESPONSE_TOO_LARGE, and is not retried; undici stops reading it, so memory stays bounded;
 * - a JSON call has `deadlineMs` (default 60 s, or the headers timeout if longer) from sending to its last byte,
 *   whatever the pace of the server ('timeout', code DEADLINE; a GET is retried like other timeouts);
 * - downloads stream: no size limit, and no overall deadline (a large file on a slow line may take long), but
 *   `bodyTimeoutMs` ends one that stalls.
 */
import * as l10n from '@vscode/l10n';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeWebReadableStream } from 'node:stream/web';
import {
  Session,
  TOKEN_ENDPOINT,
  type Credentials,
  type TokenResponse,
  type TokenSet,
  type TokenStore,
} from './grants';
import { Transport } from './dispatcher';
import { ERROR_CODES, PortalError } from './errors';
import * as http from './http';
import { asObject, numOrNull, strOrNull } from './models/read';
import { Pipeline, type Answer, type Exchange, type RequestLogLine } from './pipeline';
import type { ProxyOptions } from './proxy';
import { SecretRegistry, secretValuesIn } from './redact';
import type { RetryLimits } from './retryPolicy';
import { DEFAULT_BUDGET, DEFAULT_MAX_CONCURRENT, Scheduler, type RequestBudget } from './scheduler';
import type { LookupFunction } from './url';
import { DEFAULT_USER_AGENT } from './version';
import type { ApiContext, CallOptions, CallSpec, Download } from './endpoints/context';
import { createV3, type V3Api } from './endpoints/v3';
import { createV2, type V2Api } from './endpoints/v2';
import { createObserved, type ObservedApi } from './endpoints/observed';
import { createUploads, type UploadsApi } from './endpoints/uploads';
import type { Application, ApplicationDraft, ApplicationDraftV2, ApplicationV2 } from './models/application';

// Bound once, not imported by name: see the note at the top of models/read.ts.
const { buildQuery, describeContentType, header, notAnApi, parseContentDisposition, tokenError, unsafePath } = http;

export type { RequestLogLine };

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
  /**
   * Tokens to start with, e.g. the ones another client just obtained for the same credentials (see `tokens()`):
   * the first call then needs no token request. Ignored unless issued to the credentials' client id.
   */
  initialTokens?: TokenSet;
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
  /**
   * Longest time for one JSON request, from sending to the last byte of the answer. Default 60 000 ms, or the
   * headers timeout when that is longer.
   */
  deadlineMs?: number;
  /** Largest JSON answer read; a larger one fails 'invalid-response' (RESPONSE_TOO_LARGE). Default 32 MiB. */
  maxJsonBytes?: number;
  proxy?: ProxyOptions;
  /**
   * Certificate authorities (PEM) to trust for the portal instead of the default store. The portal's certificate is
   * always verified.
   */
  ca?: string | string[];
  /** Name resolution for direct connections (default dns.lookup). */
  lookup?: LookupFunction;
  /** One call per request attempt; lines are redacted. */
  log?: (line: RequestLogLine) => void;
  /** Called once when the portal stops accepting the credentials (revoked or deleted application). */
  onSignedOut?: (error: PortalError) => void;
  /**
   * The clock token lifetimes are counted by (epoch ms); default the wall clock. A test passes the emulator's, so
   * renewals follow the test rather than the machine's speed.
   */
  clock?: () => number;
  /** Persists tokens between sessions (e.g. in SecretStorage). */
  tokenStore?: TokenStore;
  retry?: RetryOptions;
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
  mapError?: Exchange['mapError'];
}

const DEFAULTS = {
  connectTimeoutMs: 10_000,
  headersTimeoutMs: 30_000,
  bodyTimeoutMs: 30_000,
  deadlineMs: 60_000,
  maxJsonBytes: 32 * 1024 * 1024,
  attempts: 3,
  rateLimitAttempts: 4,
  backoffMs: 250,
  maxBackoffMs: 4_000,
  maxRetryAfterMs: 60_000,
  defaultRetryAfterMs: 1_000,
};

/**
 * Answers of the token endpoint to a POST that mean "this server takes GET only" (the spec documents GET): 405 (the
 * method is not allowed) and 501 (not implemented), nothing else. A GET puts the password, and later the client
 * secret, in the query string, which servers and proxies log. A 400, 404 or 415 is what a mistyped base path, a web
 * server's error page or a gateway answers, and must not be enough to send it there.
 */
function refusesPost(e: unknown): boolean {
  return e instanceof PortalError && (e.status === 405 || e.status === 501);
}

function retryLimits(retry: RetryOptions | undefined): RetryLimits {
  return {
    attempts: Math.max(1, retry?.attempts ?? DEFAULTS.attempts),
    rateLimitAttempts: Math.max(1, retry?.rateLimitAttempts ?? DEFAULTS.rateLimitAttempts),
    backoffMs: Math.max(0, retry?.backoffMs ?? DEFAULTS.backoffMs),
    maxBackoffMs: Math.max(0, retry?.maxBackoffMs ?? DEFAULTS.maxBackoffMs),
    maxRetryAfterMs: Math.max(0, retry?.maxRetryAfterMs ?? DEFAULTS.maxRetryAfterMs),
    defaultRetryAfterMs: Math.max(0, retry?.defaultRetryAfterMs ?? DEFAULTS.defaultRetryAfterMs),
  };
}

function parseTokenAnswer(json: unknown, host: string): TokenResponse {
  const o = asObject(json);
  const access = o ? strOrNull(o, 'access_token') : null;
  if (!o || !access) throw notAnApi(host, TOKEN_ENDPOINT, 'the token answer has no access_token');
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
}

export class PortalClient implements ApiContext {
  readonly service: string;
  readonly baseUrl: string;
  readonly userAgent: string;
  readonly budget: Budget;
  readonly v3: V3Api;
  readonly v2: V2Api;
  /** File writes: observed endpoints only (see endpoints/uploads.ts). */
  readonly uploads: UploadsApi;
  /** Guest shares, invitations and the sign-in audit: observed endpoints only (see endpoints/observed.ts). */
  readonly observed: ObservedApi;
  private readonly transport: Transport;
  private readonly scheduler: Scheduler;
  private readonly pipeline: Pipeline;
  private readonly secrets = new SecretRegistry();
  private readonly session: Session;
  private readonly host: string;
  private readonly maxJsonBytes: number;
  /** Set once the token endpoint refused a POST: later token requests go straight to GET. */
  private tokenByGet = false;
  private isClosed = false;
  private closing: Promise<void> = Promise.resolve();

  constructor(options: PortalClientOptions) {
    this.service = (options.service ?? 'portal').trim() || 'portal';
    this.userAgent = options.userAgent ?? DEFAULT_USER_AGENT;
    const maxConcurrent = options.maxConcurrent ?? DEFAULT_MAX_CONCURRENT;
    this.maxJsonBytes = Math.max(1024, Math.floor(options.maxJsonBytes ?? DEFAULTS.maxJsonBytes));
    this.transport = new Transport({
      baseUrl: options.baseUrl,
      maxConcurrent,
      connectTimeoutMs: options.connectTimeoutMs ?? DEFAULTS.connectTimeoutMs,
      headersTimeoutMs: options.headersTimeoutMs ?? DEFAULTS.headersTimeoutMs,
      bodyTimeoutMs: options.bodyTimeoutMs ?? DEFAULTS.bodyTimeoutMs,
      maxJsonBytes: this.maxJsonBytes,
      proxy: options.proxy,
      ca: options.ca,
      lookup: options.lookup,
    });
    this.baseUrl = this.transport.base.origin + this.transport.base.basePath;
    this.host = this.transport.base.host;
    this.scheduler = new Scheduler(options.requestBudget ?? DEFAULT_BUDGET, maxConcurrent);
    const scheduler = this.scheduler;
    this.budget = { used: () => scheduler.used(), limit: scheduler.limit, windowMs: scheduler.windowMs };
    this.session = new Session(
      {
        endpoint: { requestToken: (form, signal) => this.requestToken(form, signal) },
        staticClientId: `${this.service}-mobile`,
        secrets: this.secrets,
        host: this.host,
        onSignedOut: options.onSignedOut,
        tokenStore: options.tokenStore,
        clock: options.clock,
      },
      options.credentials,
      options.initialTokens,
    );
    this.pipeline = new Pipeline({
      transport: this.transport,
      scheduler: this.scheduler,
      session: this.session,
      secrets: this.secrets,
      limits: retryLimits(options.retry),
      maxJsonBytes: this.maxJsonBytes,
      // The default never cuts a longer headers timeout short: a user who lets a slow portal think for 90 s
      // gets 90 s. An explicit deadline wins.
      deadlineMs: Math.max(1, options.deadlineMs ?? Math.max(DEFAULTS.deadlineMs, options.headersTimeoutMs ?? 0)),
      headersTimeoutMs: options.headersTimeoutMs ?? DEFAULTS.headersTimeoutMs,
      log: options.log,
    });
    this.v3 = createV3(this);
    this.v2 = createV2(this);
    this.uploads = createUploads(this);
    this.observed = createObserved(this);
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
   * A copy of the current tokens, to hand to a new client for the same credentials (`initialTokens`), so that it
   * starts without a token request. Secret: never log or persist it outside SecretStorage.
   */
  tokens(): TokenSet | undefined {
    return this.session.currentTokens();
  }

  /**
   * After a password sign-in: creates an application (v3) with the current token, switches to its client
   * credentials (running the grant once to prove they work) and drops the password from memory.
   */
  async enrollApplication(draft: ApplicationDraft, options: CallOptions = {}): Promise<EnrollResult<Application>> {
    return this.enroll('POST /v3/applications', () => this.v3.applications.create(draft, options), options);
  }

  /** enrollApplication through v2 (POST /v2/applications). */
  async enrollApplicationV2(
    draft: ApplicationDraftV2,
    options: CallOptions = {},
  ): Promise<EnrollResult<ApplicationV2>> {
    return this.enroll('POST /v2/applications', () => this.v2.applications.create(draft, options), options);
  }

  private async enroll<A extends { clientId: string; clientSecret?: string | null }>(
    endpoint: string,
    create: () => Promise<A>,
    options: CallOptions,
  ): Promise<EnrollResult<A>> {
    this.requirePasswordSession(endpoint);
    const application = await create();
    const { clientId, clientSecret } = application;
    if (!clientSecret) throw notAnApi(this.host, endpoint, 'the new application came back without a client secret');
    // signIn replaces the password credentials only once the new ones have worked: if the grant fails, the
    // password session stays usable, and it deletes the application again: nobody would ever have its secret, so a
    // retried sign-in must not leave it behind on the portal. A failed clean-up does not hide the first failure.
    try {
      await this.signIn({ kind: 'client', clientId, clientSecret }, options);
    } catch (error) {
      await this.v3.applications.delete(clientId).catch(() => undefined);
      throw error;
    }
    return { application, clientId, clientSecret };
  }

  private requirePasswordSession(endpoint: string): void {
    if (this.session.credentialKind !== 'password' && !this.session.hasToken) {
      throw new PortalError({
        kind: 'auth',
        endpoint,
        message: l10n.t('Sign in with a user name and password before creating an application.'),
      });
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
  /**
   * What `util.inspect`, a debugger's preview, an assertion's diff or JSON.stringify show of a client: its origin
   * only. The client holds credentials and tokens in its fields; none of them may leave through a dump of it.
   */
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `PortalClient(${this.baseUrl})`;
  }

  toJSON(): { portalClient: string } {
    return { portalClient: this.baseUrl };
  }

  close(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.pipeline.close();
    this.scheduler.close();
    this.closing = this.transport.close().catch(() => undefined);
  }

  /** Settles once close() has released every socket (immediately if the client is open). */
  get closed(): Promise<void> {
    return this.closing;
  }

  // ---- ApiContext -------------------------------------------------------------------------------------------------

  async json<T>(spec: CallSpec, parse: (json: unknown) => T): Promise<T> {
    const endpoint = `${spec.method} ${spec.path}`;
    try {
      const x = this.prepare(spec, endpoint, false);
      // pipeline.run() spelled out: every JSON call comes this way, and one async frame fewer shows.
      const first = await this.pipeline.sendOnce(x, 1);
      return this.decode(first.kind === 'ok' ? first : await this.pipeline.retry(x, first), endpoint, parse);
    } catch (e) {
      throw this.scrub(e);
    }
  }

  async empty(spec: CallSpec): Promise<void> {
    const endpoint = `${spec.method} ${spec.path}`;
    try {
      await this.pipeline.run(this.prepare(spec, endpoint, false));
    } catch (e) {
      throw this.scrub(e);
    }
  }

  async text(spec: CallSpec): Promise<string> {
    const endpoint = `${spec.method} ${spec.path}`;
    try {
      return (await this.pipeline.run(this.prepare(spec, endpoint, false))).text;
    } catch (e) {
      throw this.scrub(e);
    }
  }

  async download(spec: CallSpec): Promise<Download> {
    const endpoint = `${spec.method} ${spec.path}`;
    let res: Answer;
    try {
      res = await this.pipeline.run(this.prepare(spec, endpoint, true));
    } catch (e) {
      throw this.scrub(e);
    }
    const lengthHeader = header(res.headers, 'content-length');
    const length = lengthHeader !== undefined && /^\d+$/.test(lengthHeader) ? Number(lengthHeader) : undefined;
    const body = res.body ?? Readable.from([]);
    return {
      body,
      contentType: header(res.headers, 'content-type') ?? 'application/octet-stream',
      filename: parseContentDisposition(header(res.headers, 'content-disposition')),
      length,
      toWeb: () => Readable.toWeb(body) as NodeWebReadableStream<Uint8Array>,
    };
  }

  keepSecret(value: string | null | undefined): void {
    this.secrets.pin(value ?? undefined);
  }

  // ---- Internals ----------------------------------------------------------------------------------------------

  /** Builds the request once; every attempt sends the same one (with a fresh token). */
  private prepare(spec: ExchangeSpec, endpoint: string, stream: boolean): Exchange {
    if (unsafePath(spec.path)) {
      throw new PortalError({
        kind: 'invalid-input',
        // eslint-disable-next-line no-control-regex
        endpoint: endpoint.replace(/\u0000/g, ''),
        code: ERROR_CODES.unsafePathSegment,
        message: l10n.t(
          'The request was not sent: an id or name in it is empty, "." or "..", which would address something else on the portal.',
        ),
      });
    }
    const query = buildQuery(spec.query);
    const auth = spec.auth !== false;
    const accept = stream ? '*/*' : 'application/json';
    const headers: Record<string, string> = auth
      ? { 'user-agent': this.userAgent, accept, authorization: '' }
      : { 'user-agent': this.userAgent, accept };
    let body: string | Buffer | (() => Readable) | undefined;
    if (spec.raw) {
      body = spec.raw.bytes;
      Object.assign(headers, spec.raw.headers, { 'content-type': spec.raw.contentType });
    } else if (spec.form) {
      body = new URLSearchParams(spec.form).toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
    } else if (spec.body !== undefined) {
      for (const secret of secretValuesIn(spec.body)) this.secrets.add(secret);
      body = JSON.stringify(spec.body);
      headers['content-type'] = 'application/json';
    }
    return {
      method: spec.method,
      endpoint,
      path: `${this.transport.base.basePath}${spec.path}${query}`,
      logPath: `${spec.path}${query}`,
      headers,
      body,
      auth,
      priority: spec.priority === true,
      stream,
      signal: spec.signal,
      mapError: spec.mapError,
    };
  }

  private decode<T>(res: Answer, endpoint: string, parse: (json: unknown) => T): T {
    let json: unknown;
    try {
      json = JSON.parse(res.text);
    } catch {
      const detail =
        res.text.trim() === ''
          ? l10n.t('an empty answer (HTTP {0}), expected JSON', res.status)
          : /json/i.test(describeContentType(res.headers))
            ? l10n.t('the JSON it sent is malformed or cut off')
            : l10n.t('expected JSON, got {0}', describeContentType(res.headers));
      throw notAnApi(this.host, endpoint, detail, res.status);
    }
    try {
      return parse(json);
    } catch (e) {
      if (e instanceof PortalError) throw e.endpoint ? e : e.withEndpoint(endpoint);
      throw notAnApi(
        this.host,
        endpoint,
        l10n.t('its answer could not be read: {0}', e instanceof Error ? e.message : String(e)),
        res.status,
      );
    }
  }

  /**
   * POST with a form body first: it keeps passwords and secrets out of URLs, which servers and proxies log. The spec
   * documents GET with query parameters, so a portal that refuses the POST gets that instead, from then on (the
   * query is redacted in every log line and error like any other).
   */
  private async requestToken(form: Record<string, string>, signal?: AbortSignal): Promise<TokenResponse> {
    if (!this.tokenByGet) {
      try {
        return await this.tokenExchange(form, 'POST', signal);
      } catch (e) {
        if (!refusesPost(e)) throw e;
        this.tokenByGet = true;
      }
    }
    return this.tokenExchange(form, 'GET', signal);
  }

  private tokenExchange(
    form: Record<string, string>,
    method: 'GET' | 'POST',
    signal?: AbortSignal,
  ): Promise<TokenResponse> {
    const spec: ExchangeSpec = {
      method,
      path: '/oauth/token',
      ...(method === 'POST' ? { form } : { query: form }),
      auth: false,
      priority: true,
      signal,
      mapError: (status, text, endpoint, headers) => tokenError({ status, text, endpoint, host: this.host, headers }),
    };
    return this.json(spec, (json) => parseTokenAnswer(json, this.host));
  }

  private scrub(e: unknown): unknown {
    if (e instanceof PortalError) return e.mapTexts((t) => this.secrets.redact(t));
    return e;
  }
}

export type { Credentials, TokenSet, TokenStore };
