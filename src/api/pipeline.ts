/**
 * The request pipeline: every call of a PortalClient goes through `run()`.
 *
 *   sendOnce(): token (single-flight, see auth.ts) → slot in the rate budget and concurrency cap (scheduler.ts)
 *               → undici (dispatcher.ts), under the overall deadline (deadline.ts) → a tagged Outcome, with one
 *               redacted log line
 *   run():      Outcome → retryPolicy() (retryPolicy.ts) → return, throw, renew the token, wait, or pause every
 *               request of the client → sendOnce() again
 *
 * This is every request's path, so it allocates little: the first outcome of a successful call goes straight
 * back, without building retry state.
 */
import * as l10n from '@vscode/l10n';
import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import type { Session } from './grants';
import { Deadlines, type Watched } from './deadline';
import { Transport, type HttpMethod } from './dispatcher';
import { PortalError, cancelledError, type PortalErrorKind } from './errors';
import { classifyFailure } from './failures';
import { header, httpError, parseRetryAfter } from './http';
import type { SecretRegistry } from './redact';
import { firstTry, retryPolicy, type Outcome, type RetryLimits, type RetryState } from './retryPolicy';
import type { Scheduler, Ticket } from './scheduler';

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

/** A request prepared once and sent on each attempt. */
export interface Exchange {
  readonly method: HttpMethod;
  /** "GET /v3/userinfo": no query, for errors. */
  readonly endpoint: string;
  /** Base path + API path + query: what goes on the wire. */
  readonly path: string;
  /** API path + query, for log lines (redacted when logged). */
  readonly logPath: string;
  readonly headers: Record<string, string>;
  /** A function: a stream made afresh for each attempt (see CallSpec.raw). */
  readonly body: string | Buffer | (() => Readable) | undefined;
  /** Send the bearer token. */
  readonly auth: boolean;
  /** Ahead of every queued call (token requests). */
  readonly priority: boolean;
  /** Hand the body over as a stream (downloads): no size cap, no overall deadline. */
  readonly stream: boolean;
  readonly signal: AbortSignal | undefined;
  readonly mapError:
    | ((
        status: number,
        text: string,
        endpoint: string,
        headers: Dispatcher.ResponseData['headers'],
      ) => PortalError | undefined)
    | undefined;
}

export interface Answer {
  readonly kind: 'ok';
  readonly status: number;
  readonly headers: Dispatcher.ResponseData['headers'];
  /** The body as text ('' for stream exchanges). */
  readonly text: string;
  /** The body as a stream (stream exchanges only); holds a concurrency slot until it ends. */
  readonly body: Readable | undefined;
}

/** What sendOnce() gives: the answer, or what went wrong, for the retry policy. */
type Attempt = Answer | Exclude<Outcome, { kind: 'ok' }>;

interface PipelineOptions {
  transport: Transport;
  scheduler: Scheduler;
  session: Session;
  secrets: SecretRegistry;
  limits: RetryLimits;
  maxJsonBytes: number;
  deadlineMs: number;
  headersTimeoutMs: number;
  log: ((line: RequestLogLine) => void) | undefined;
}

/** A Content-Length over the cap fails like undici's own cut-off (same table row in failures.ts). */
const TOO_LARGE = { code: 'UND_ERR_RES_EXCEEDED_MAX_SIZE' };
/** Error bodies are read up to this size (they are short JSON); the rest is discarded. */
const MAX_ERROR_BODY = 64 * 1024;

function sleep(ms: number, signal: AbortSignal | undefined, endpoint: string): Promise<void> {
  if (signal?.aborted) return Promise.reject(cancelledError(endpoint));
  if (ms <= 0) return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(cancelledError(endpoint));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Reads at most `limit` bytes of a body, then lets the rest go. */
async function readText(body: Readable, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= limit) {
      body.destroy();
      break;
    }
  }
  return Buffer.concat(chunks).subarray(0, limit).toString('utf8');
}

export class Pipeline {
  private readonly o: PipelineOptions;
  private readonly deadlines: Deadlines;
  private readonly host: string;
  private closed = false;
  /** The Authorization header of the last token used: built once per token, not per request. */
  private bearerFor: string | undefined;
  private bearer = '';

  /** Headers timeout of JSON requests: the deadline when it is shorter. */
  private readonly firstByteMs: number;
  private readonly headersTimeoutMs: number;

  constructor(options: PipelineOptions) {
    this.o = options;
    this.deadlines = new Deadlines(options.deadlineMs);
    this.host = options.transport.base.host;
    this.headersTimeoutMs = options.headersTimeoutMs;
    this.firstByteMs = Math.min(options.headersTimeoutMs, options.deadlineMs);
  }

  close(): void {
    this.closed = true;
    this.deadlines.close();
  }

  /** Sends until the retry policy says stop: the answer, or the error the caller sees. */
  async run(x: Exchange): Promise<Answer> {
    const first = await this.sendOnce(x, 1);
    return first.kind === 'ok' ? first : this.retry(x, first);
  }

  /**
   * After a first attempt that did not succeed: asks the retry policy, acts on its step, sends again. A caller on
   * the hottest path may call `sendOnce(x, 1)` and then this itself, to spare a frame (see PortalClient.json).
   */
  async retry(x: Exchange, first: Exclude<Attempt, Answer>): Promise<Answer> {
    let state: RetryState = firstTry(x.method === 'GET', this.o.limits);
    let outcome: Attempt = first;
    for (let attempt = 2; ; attempt++) {
      const step = retryPolicy(outcome, state);
      switch (step.action) {
        case 'return':
          return outcome as Answer;
        case 'throw':
          throw step.error;
        case 'signed-out':
          throw this.o.session.rejectedAfterRenewal(x.endpoint);
        case 'renew-token':
          // Only a 401 leads here; the stale token tells the session whether someone already renewed it.
          if (outcome.kind === 'unauthorized') await this.o.session.renewAfter401(outcome.token, x.endpoint, x.signal);
          break;
        case 'wait-and-retry':
          await sleep(step.ms, x.signal, x.endpoint);
          break;
        case 'pause-all-and-retry':
          this.o.scheduler.pause(step.ms);
          break;
      }
      state = step.state;
      outcome = await this.sendOnce(x, attempt);
    }
  }

  /** One attempt, from token to the last byte (or to the stream handed over). */
  async sendOnce(x: Exchange, n: number): Promise<Attempt> {
    if (this.closed) throw cancelledError(x.endpoint, l10n.t('The portal connection was closed.'));
    if (x.signal?.aborted) throw cancelledError(x.endpoint);
    let token: string | undefined;
    if (x.auth) {
      token = this.o.session.peekToken() ?? (await this.o.session.accessToken(x.endpoint, x.signal));
      if (token !== this.bearerFor) {
        this.bearerFor = token;
        this.bearer = `Bearer ${token}`;
      }
      x.headers.authorization = this.bearer;
    }
    const now = performance.now();
    const at = new Try(n, x.priority ? undefined : this.o.scheduler.tryAcquire(now));
    at.started = now;
    if (!at.ticket) {
      await this.queue(x, at);
      at.started = performance.now();
    }
    if (!x.stream) this.deadlines.start(at, at.started);
    let res: Dispatcher.ResponseData;
    try {
      // Until the headers arrive, undici's headers timeout keeps the deadline (see deadline.ts).
      res = await this.o.transport.request(x, x.stream ? this.headersTimeoutMs : this.firstByteMs);
    } catch (err) {
      return this.failed(x, err, false, at);
    }
    at.ticket?.responded();
    if (res.statusCode < 200 || res.statusCode >= 300) return this.refused(x, res, token, at);
    if (x.stream) return this.handOver(x, res, at);
    const length = res.headers['content-length'];
    if (typeof length === 'string' && Number(length) > this.o.maxJsonBytes) {
      res.body.destroy();
      return this.failed(x, TOO_LARGE, true, at);
    }
    this.deadlines.bodyArrived(at, res.body);
    let text: string;
    try {
      // undici's own consumer: much cheaper than iterating the stream.
      text = await res.body.text();
    } catch (err) {
      return this.failed(x, err, true, at);
    }
    this.done(at);
    this.emit(x, at, res.statusCode);
    return { kind: 'ok', status: res.statusCode, headers: res.headers, text, body: undefined };
  }

  /** No slot free now: wait in the scheduler's queue. */
  private async queue(x: Exchange, at: Try): Promise<void> {
    const queuedAt = performance.now();
    try {
      at.ticket = await this.o.scheduler.acquire(x.signal, x.priority);
    } catch (e) {
      throw e instanceof PortalError ? e.withEndpoint(x.endpoint) : e;
    }
    at.queuedMs = Math.round(performance.now() - queuedAt);
  }

  private handOver(x: Exchange, res: Dispatcher.ResponseData, at: Try): Answer {
    const release = () => at.ticket?.release();
    res.body.once('end', release);
    res.body.once('close', release);
    res.body.once('error', release);
    this.emit(x, at, res.statusCode);
    return { kind: 'ok', status: res.statusCode, headers: res.headers, text: '', body: res.body };
  }

  /**
   * A non-2xx answer: its error, from a bounded read of the body. The read is under the overall deadline like any
   * answer's (a download's error body too, from the moment it is refused): a portal that drips its error page would
   * otherwise hold the slot until the size bound, one byte at a time.
   */
  private async refused(
    x: Exchange,
    res: Dispatcher.ResponseData,
    token: string | undefined,
    at: Try,
  ): Promise<Attempt> {
    if (x.stream) this.deadlines.start(at, performance.now());
    this.deadlines.bodyArrived(at, res.body);
    let text = '';
    try {
      text = await readText(res.body, MAX_ERROR_BODY);
    } catch (err) {
      if (at.expired) return this.failed(x, err, true, at);
      // Otherwise the status says enough.
    }
    this.done(at);
    const status = res.statusCode;
    if (status === 401 && token !== undefined) {
      this.emit(x, at, status);
      return { kind: 'unauthorized', token };
    }
    const retryAfterMs = parseRetryAfter(header(res.headers, 'retry-after'));
    const error =
      x.mapError?.(status, text, x.endpoint, res.headers) ??
      httpError({ status, headers: res.headers, text, endpoint: x.endpoint, host: this.host, retryAfterMs });
    this.emit(x, at, status, error);
    return { kind: 'http', status, retryAfterMs, error };
  }

  private failed(x: Exchange, err: unknown, duringBody: boolean, at: Try): Attempt {
    this.done(at);
    const f = classifyFailure(err, {
      endpoint: x.endpoint,
      host: this.host,
      proxyHost: this.o.transport.proxyHost,
      signal: x.signal,
      duringBody,
      maxJsonBytes: this.o.maxJsonBytes,
      deadlineMs: this.o.deadlineMs,
    });
    this.emit(x, at, undefined, f.error);
    return { kind: 'failure', error: f.error, transient: f.transient, neverSent: f.neverSent };
  }

  private done(at: Try): void {
    at.ticket?.release();
    this.deadlines.end(at);
  }

  /** One log line per attempt; nothing is built when nobody listens. */
  private emit(x: Exchange, at: Try, status?: number, error?: PortalError): void {
    const log = this.o.log;
    if (!log) return;
    try {
      const line: RequestLogLine = {
        method: x.method,
        path: this.o.secrets.redact(x.logPath),
        attempt: at.n,
        ms: Math.round(performance.now() - at.started),
      };
      if (status !== undefined) line.status = status;
      if (at.queuedMs > 0) line.queuedMs = at.queuedMs;
      if (error) {
        line.error = this.o.secrets.redact(error.message);
        line.errorKind = error.kind;
      }
      log(line);
    } catch {
      // Logging must never break a request.
    }
  }
}

/** One attempt in flight: its slot, its timing and what the deadline watch needs. A class: one per request. */
class Try implements Watched {
  queuedMs = 0;
  started = 0;
  due = 0;
  body: Readable | undefined = undefined;
  expired = false;
  prev: Watched | undefined = undefined;
  next: Watched | undefined = undefined;
  watched = false;
  constructor(
    readonly n: number,
    public ticket: Ticket | undefined,
  ) {}
}
