// The emulator as a library: startEmulator() for tests, benchmarks, the demo and the CLI.
import { TokenStore } from './auth';
import { control } from './control';
import { Faults, parseRules } from './faults';
import { loadState, Persistence, type State } from './persistence';
import { RateLimiter } from './ratelimit';
import { buildRouter } from './routes';
import { buildSeed } from './seeds';
import { EmulatorServer } from './server';
import { Store } from './store';
import {
  DEFAULT_OPTIONS,
  LITERAL_MISSING_READS,
  LITERAL_MISSING_OBSERVED,
  LITERAL_MISSING_WRITES,
  PROFILES,
  ROUTE_IDS,
  SEEDS,
  type Emulator,
  type EmulatorOptions,
  type EmulatorCounts,
  type EmulatorStats,
  type FaultRule,
  type FileEdit,
  type Profile,
  type RouteId,
  type SeedName,
} from './types';
import type { World } from './world';
import { Blobs } from './blobs';
import { newUploads } from './uploads';
import { editFile } from './fileEdits';

export type {
  Emulator,
  EmulatorOptions,
  EmulatorStats,
  ErrorShape,
  FaultRule,
  FaultKind,
  FileEdit,
  LargeSeedOptions,
  Profile,
  RouteId,
  SeedName,
} from './types';
export {
  DEFAULT_OPTIONS,
  DEFAULT_LARGE,
  LITERAL_MISSING_READS,
  LITERAL_MISSING_OBSERVED,
  LITERAL_MISSING_WRITES,
  PROFILES,
  ROUTE_IDS,
  SEEDS,
} from './types';

const emptyStats = (): EmulatorCounts => ({ requests: 0, tokenRequests: 0, rateLimited: 0, byRoute: {} });

class EmulatorInstance implements Emulator {
  private world: World;
  private limiter: RateLimiter;
  private readonly faults = new Faults();
  private statsData = emptyStats();
  private readonly server: EmulatorServer;
  private readonly persistence: Persistence | undefined;
  private generation = 0;
  private stopping: Promise<void> | undefined;
  private readonly blobs: Blobs;
  port = 0;
  readonly profile: Profile;
  readonly missingReads: readonly RouteId[];

  constructor(
    private readonly options: EmulatorOptions,
    state: State | undefined,
  ) {
    this.profile = options.profile;
    const missing = new Set([...options.missingReads, ...(options.profile === 'literal' ? LITERAL_MISSING_READS : [])]);
    this.missingReads = ROUTE_IDS.filter((id) => missing.has(id));
    if (options.profile === 'literal')
      for (const id of [...LITERAL_MISSING_WRITES, ...LITERAL_MISSING_OBSERVED]) missing.add(id);
    this.blobs = new Blobs(options.dataFile ? `${options.dataFile}.blobs` : undefined);
    this.world = this.makeWorld(state ? new Store(state.data) : buildSeed(options.seed, options.large), state);
    this.limiter = new RateLimiter(options.rateLimit.count, options.rateLimit.windowSeconds);
    const log = options.quiet ? (): void => undefined : (line: string): void => console.error(`[emulator] ${line}`);
    this.persistence = options.dataFile
      ? new Persistence(
          options.dataFile,
          () => ({ data: this.world.store.snapshot(), tokens: this.world.tokens.snapshot() }),
          () => `${this.generation}:${this.world.store.revision}:${this.world.tokens.revision}`,
          log,
        )
      : undefined;
    this.server = new EmulatorServer({
      router: buildRouter(missing),
      profile: options.profile,
      blobs: () => this.blobs,
      world: () => this.world,
      limiter: () => this.limiter,
      clock: options.clock ?? Date.now,
      faults: this.faults,
      stats: this.statsData,
      latency: { ms: options.latencyMs, jitterMs: options.jitterMs },
      control: (req) =>
        control(
          {
            setFaults: (r) => this.setFaults(r),
            clearFaults: () => this.clearFaults(),
            faultRules: () => this.faults.rules(),
            expireAllTokens: () => this.expireAllTokens(),
            revokeApplication: (id) => this.revoke(id),
            stats: () => this.stats(),
            resetStats: () => this.resetStats(),
            reset: (seed) => this.reset(seed),
            describe: () => ({ profile: this.profile, missingReads: [...this.missingReads], seed: this.options.seed }),
            editFile: (edit) => this.editFile(edit),
          },
          req,
        ),
      afterRequest: () => this.persistence?.changed(),
      log,
    });
  }

  get url(): string {
    return `http://${this.options.host}:${this.port}`;
  }

  async start(): Promise<void> {
    this.port = await this.server.listen(this.options.port, this.options.host);
    // A fresh data file gets the seed at once, so it exists as soon as the emulator listens.
    this.persistence?.flush();
  }

  stop(): Promise<void> {
    this.stopping ??= this.server
      .stop()
      .then(() => this.persistence?.flush())
      .finally(() => this.blobs.close());
    return this.stopping;
  }

  /** Checked like the control endpoint's rules, so a bad rule throws rather than doing nothing. */
  setFaults(rules: FaultRule[]): void {
    this.faults.set(parseRules(rules));
  }
  clearFaults(): void {
    this.faults.clear();
  }
  releaseDelays(): void {
    this.server.wakeDelays();
  }
  expireAllTokens(): void {
    this.world.tokens.expireAll();
    this.persistence?.changed();
  }

  revokeApplication(clientId: string): void {
    this.revoke(clientId);
  }

  stats(): EmulatorStats {
    return { ...this.statsData, byRoute: { ...this.statsData.byRoute }, inFlight: this.server.inFlight };
  }

  resetStats(): void {
    // The pipeline holds this object, so it is cleared in place.
    Object.assign(this.statsData, emptyStats());
  }

  editFile(edit: FileEdit): void {
    editFile(this.world, edit);
    this.persistence?.changed();
  }

  /** Fresh data, no tokens, no faults, empty rate-limit windows and stats. */
  reset(seed: SeedName = this.options.seed): void {
    this.generation++;
    this.world = this.makeWorld(buildSeed(seed, this.options.large));
    this.limiter = new RateLimiter(this.options.rateLimit.count, this.options.rateLimit.windowSeconds);
    this.faults.clear();
    this.resetStats();
    this.persistence?.changed();
  }

  /** The static password-grant client signs everyone out; an application is deleted with its tokens. */
  private revoke(clientId: string): boolean {
    const w = this.world;
    if (clientId === w.mobileClientId) w.tokens.killClient(clientId);
    else if (w.store.applications.has(clientId)) {
      w.store.deleteApplication(clientId);
      w.tokens.killClient(clientId);
    } else return false;
    this.persistence?.changed();
    return true;
  }

  private makeWorld(store: Store, state?: State): World {
    const { service, tokenLifetimeSeconds } = this.options;
    return {
      store,
      tokens: new TokenStore(tokenLifetimeSeconds, state?.tokens),
      service,
      mobileClientId: `${service}-mobile`,
      profile: this.options.profile,
      groupChangesKeepLastModified: this.options.groupChangesKeepLastModified === true,
      blobs: this.blobs,
      uploads: newUploads(),
    };
  }
}

function resolveOptions(partial: Partial<EmulatorOptions>): EmulatorOptions {
  const o: EmulatorOptions = {
    ...DEFAULT_OPTIONS,
    ...partial,
    rateLimit: { ...DEFAULT_OPTIONS.rateLimit, ...partial.rateLimit },
    host: '127.0.0.1',
    missingReads: [...(partial.missingReads ?? [])],
  };
  if (!SEEDS.includes(o.seed))
    throw new Error(`seed must be one of ${SEEDS.join(', ')}, got ${JSON.stringify(o.seed)}`);
  if (!PROFILES.includes(o.profile))
    throw new Error(`profile must be one of ${PROFILES.join(', ')}, got ${JSON.stringify(o.profile)}`);
  const unknownRoutes = o.missingReads.filter((id) => !(ROUTE_IDS as readonly string[]).includes(id));
  if (unknownRoutes.length > 0) throw new Error(`missingReads names unknown route ids: ${unknownRoutes.join(', ')}`);
  if (!/^[a-z][a-z0-9-]{0,39}$/.test(o.service))
    throw new Error(`service must be a lower-case name, got ${JSON.stringify(o.service)}`);
  if (!Number.isInteger(o.port) || o.port < 0 || o.port > 65535) throw new Error(`port must be 0-65535, got ${o.port}`);
  if (!(o.tokenLifetimeSeconds > 0)) throw new Error('tokenLifetimeSeconds must be positive');
  if (!(o.rateLimit.count >= 0) || !(o.rateLimit.windowSeconds > 0))
    throw new Error('rateLimit needs count >= 0 and windowSeconds > 0');
  if (!(o.latencyMs >= 0) || !(o.jitterMs >= 0)) throw new Error('latencyMs and jitterMs must not be negative');
  return o;
}

export async function startEmulator(options: Partial<EmulatorOptions> = {}): Promise<Emulator> {
  const resolved = resolveOptions(options);
  const state = resolved.dataFile ? loadState(resolved.dataFile) : undefined;
  const emulator = new EmulatorInstance(resolved, state);
  await emulator.start();
  return emulator;
}
