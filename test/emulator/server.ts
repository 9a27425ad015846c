// The HTTP pipeline: control endpoint, stats, body, rate limit, faults, auth, handler, reply.
// Every request ends in a JSON answer (or a deliberate fault); a throwing handler becomes a 500.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { authenticate } from './bearer';
import type { Blobs } from './blobs';
import { ApiError, empty, type ApiRequest, type Reply } from './http';
import { reshaped, terminalAnswer } from './fault-answers';
import type { Faults } from './faults';
import type { RateLimiter } from './ratelimit';
import { apiErrorReply } from './profile';
import { oversizedByQuirk, springTrap } from './quirks';
import { errorReply, writeReply } from './respond';
import type { Match, Router } from './router';
import { Timers } from './timers';
import type { EmulatorCounts, Profile } from './types';
import { isPlainObject } from './validate';
import type { World } from './world';

export const MAX_BODY_BYTES = 1024 * 1024;
/** Past this, an oversized upload is cut off instead of drained. */
const DRAIN_LIMIT = 16 * 1024 * 1024;
const CUT_OFF_GRACE_MS = 2000;
const CONTROL_PREFIX = '/__emulator/';

export interface PipelineDeps {
  router: Router;
  world: () => World;
  limiter: () => RateLimiter;
  /** The portal's clock (ms): the wall clock, or a test's own, so no test depends on the machine's speed. */
  clock: () => number;
  faults: Faults;
  stats: EmulatorCounts;
  latency: { ms: number; jitterMs: number };
  control: (req: ApiRequest) => Reply;
  profile: Profile;
  /** Where upload routes spool their bodies. */
  blobs: () => Blobs;
  afterRequest: () => void;
  log: (line: string) => void;
}

interface Body {
  bytes: Buffer;
  tooLarge: boolean;
  aborted: boolean;
  cutOff: boolean;
}

function readBody(req: IncomingMessage): Promise<Body> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (b: Omit<Body, 'bytes'>): void => {
      if (done) return;
      done = true;
      resolve({ ...b, bytes: b.tooLarge ? Buffer.alloc(0) : Buffer.concat(chunks) });
    };
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
      else if (size > DRAIN_LIMIT) finish({ tooLarge: true, aborted: false, cutOff: true });
    });
    req.on('end', () => finish({ tooLarge: size > MAX_BODY_BYTES, aborted: false, cutOff: false }));
    req.on('error', () => finish({ tooLarge: false, aborted: true, cutOff: false }));
    req.on('close', () => finish({ tooLarge: false, aborted: !req.complete, cutOff: false }));
  });
}

function isLoopback(address: string): boolean {
  return address === '127.0.0.1' || address === '::1' || address === '::ffff:127.0.0.1';
}

function parseJsonBody(bytes: Buffer): Record<string, unknown> {
  const text = bytes.toString('utf8');
  if (text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw new ApiError('invalid_input', `Malformed JSON body: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (!isPlainObject(parsed)) throw new ApiError('invalid_input', 'The request body must be a JSON object');
  return parsed;
}

export class EmulatorServer {
  private readonly server: Server;
  private readonly timers = new Timers();
  private jitterSeed = 1;
  private handling = 0;

  constructor(private readonly deps: PipelineDeps) {
    this.server = createServer({ keepAliveTimeout: 5000 }, (req, res) => {
      // A test asks the control endpoint whether the API requests are all answered; its own question is not one.
      const counted = !(req.url ?? '').startsWith(CONTROL_PREFIX);
      if (counted) this.handling++;
      this.handle(req, res)
        .catch((e: unknown) => {
          this.deps.log(
            `request failed outside the handler: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`,
          );
          if (!res.headersSent && !res.destroyed) {
            res.writeHead(500, { 'Content-Type': 'application/json; charset=utf-8' });
            res.end(JSON.stringify({ error: 'internal_error', message: 'Internal error' }));
          }
        })
        .finally(() => {
          if (counted) this.handling--;
        });
    });
    this.server.on('clientError', (_err, socket) => {
      if (socket.writable)
        socket.end(
          'HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n{"error":"invalid_input","message":"Bad HTTP request"}',
        );
      else socket.destroy();
    });
  }

  listen(port: number, host: string): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => {
        this.server.off('error', reject);
        resolve((this.server.address() as AddressInfo).port);
      });
    });
  }

  /** Every answer waiting out a delay goes now. */
  wakeDelays(): void {
    this.timers.wakeAll();
  }

  /** API requests begun and not yet answered, refused or dropped: what a test waits on to see the portal settle. */
  get inFlight(): number {
    return this.handling;
  }

  stop(): Promise<void> {
    this.timers.clearAll();
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = (req.method ?? 'GET').toUpperCase();
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://emulator.invalid');
    } catch {
      await writeReply(res, errorReply(400, { error: 'invalid_input', message: 'Bad request target' }), this.timers);
      return;
    }
    const path = url.pathname;
    const remoteAddress = req.socket.remoteAddress ?? 'unknown';
    const spoolLimit = this.deps.router.match(method, path)?.route.spool;
    const spooled = spoolLimit === undefined ? undefined : await this.deps.blobs().spool(req, spoolLimit);
    const body = spooled
      ? { bytes: Buffer.alloc(0), tooLarge: spooled.tooLarge, aborted: spooled.aborted, cutOff: false }
      : await readBody(req);
    if (body.aborted) return;
    // A body no handler kept (a fault answered, the handler refused it) does not outlive the request.
    if (spooled) res.once('close', () => this.deps.blobs().discard([spooled.path]));
    const request: ApiRequest = {
      method,
      path,
      query: url.searchParams,
      params: {},
      headers: req.headers,
      rawBody: body.bytes,
      body: {},
      remoteAddress,
      now: this.deps.clock(),
      ...(spooled && !spooled.tooLarge ? { spooled } : {}),
    };

    if (path.startsWith(CONTROL_PREFIX)) {
      const reply = !isLoopback(remoteAddress)
        ? errorReply(403, { error: 'forbidden', message: 'The control endpoint answers loopback clients only' })
        : this.run(() => this.deps.control(request));
      await writeReply(res, reply, this.timers);
      this.deps.afterRequest();
      return;
    }

    const match = this.count(method, path);
    const limit = this.deps.limiter().check(remoteAddress, this.deps.clock());
    if (!limit.ok) {
      this.deps.stats.rateLimited++;
      await this.finish(
        req,
        res,
        body,
        this.apiError(
          429,
          { error: 'rate_limited', message: `Too many requests; retry in ${limit.retryAfterSeconds} s` },
          { 'Retry-After': String(limit.retryAfterSeconds) },
        ),
      );
      return;
    }

    const decision = this.deps.faults.decide(method, path);
    await this.timers.sleep(this.deps.latency.ms + this.jitter() + decision.delayMs);
    const t = decision.terminal;
    if (t?.kind === 'reset') {
      req.socket.destroy();
      return;
    }
    if (t && t.kind !== 'ignore-writes') {
      if (t.kind === 'rate-limit') this.deps.stats.rateLimited++;
      // A body rule shapes the fault's answer too: `status` 500 with `drip` is a 500 whose body drips.
      await this.finish(req, res, body, terminalAnswer(t, this.deps.profile), decision.body);
      return;
    }
    const reply = this.answer(request, body, match, t?.kind === 'ignore-writes');
    // Before writing: a dripped answer never finishes, and its change must still be persisted.
    this.deps.afterRequest();
    await this.finish(req, res, body, reshaped(reply, decision.body, url.searchParams), decision.body);
  }

  private count(method: string, path: string): Match | undefined {
    const { stats } = this.deps;
    const match = this.deps.router.match(method, path);
    const key = match?.key ?? `${method} (unmatched)`;
    stats.requests++;
    stats.byRoute[key] = (stats.byRoute[key] ?? 0) + 1;
    if (path === '/oauth/token') stats.tokenRequests++;
    return match;
  }

  private answer(request: ApiRequest, body: Body, match: Match | undefined, ignoreWrite: boolean): Reply {
    const { method, path } = request;
    if (body.tooLarge)
      return this.apiError(413, {
        error: 'payload_too_large',
        message: `Request bodies are limited to ${match?.route.spool ?? MAX_BODY_BYTES} bytes`,
      });
    if (!match) return this.apiError(404, { error: 'not_found', message: `No endpoint for ${method} ${path}` });
    return this.run(
      () => {
        const w = this.deps.world();
        request.params = match.params;
        const authorization = request.headers.authorization;
        if (match.route.auth !== false)
          request.caller = authenticate(typeof authorization === 'string' ? authorization : undefined, w, request.now);
        if (match.route.jsonBody ?? (method === 'POST' || method === 'PATCH')) request.body = parseJsonBody(body.bytes);
        springTrap(w.store, method, path);
        const reply = ignoreWrite ? this.oldObject(request, w) : match.route.handler(request, w);
        return oversizedByQuirk(w.store, request, reply);
      },
      `${method} ${path}`,
      true,
    );
  }

  /** `ignore-writes`: what a GET of the same path answers, and no change; 200 empty without one. */
  private oldObject(request: ApiRequest, w: World): Reply {
    const get = this.deps.router.match('GET', request.path);
    if (!get) return empty();
    return get.route.handler({ ...request, method: 'GET', params: get.params, body: {} }, w);
  }

  private apiError(status: number, body: Record<string, unknown>, headers: Record<string, string> = {}): Reply {
    return apiErrorReply(this.deps.profile, status, body, headers);
  }

  private async finish(
    req: IncomingMessage,
    res: ServerResponse,
    body: Body,
    reply: Reply,
    fault?: Parameters<typeof writeReply>[3],
  ): Promise<void> {
    await writeReply(res, reply, this.timers, fault);
    // Closing at once (or answering with Connection: close), with upload bytes still unread, makes the
    // kernel send a reset that can wipe the 413 before the client reads it; so the socket keeps
    // draining for a grace period and is closed only then.
    if (body.cutOff)
      res.once('finish', () => void this.timers.sleep(CUT_OFF_GRACE_MS).then(() => req.socket.destroy()));
  }

  /** API errors take the profile's shapes; the control endpoint's stay JSON. */
  private run(fn: () => Reply, what = 'control', api = false): Reply {
    const error = (status: number, body: Record<string, unknown>, headers?: Record<string, string>): Reply =>
      api ? this.apiError(status, body, headers) : errorReply(status, body, headers);
    try {
      return fn();
    } catch (e) {
      if (e instanceof ApiError) return error(e.status, e.body(), e.headers);
      this.deps.log(`500 on ${what}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      return error(500, { error: 'internal_error', message: 'Internal server error' });
    }
  }

  /** Jitter draws from its own sequence so it never shifts which requests a fault share hits. */
  private jitter(): number {
    const j = this.deps.latency.jitterMs;
    if (j <= 0) return 0;
    this.jitterSeed = (this.jitterSeed * 1103515245 + 12345) >>> 0;
    return this.jitterSeed % (j + 1);
  }
}
