// The emulator's public surface: what tests, benchmarks and the demo are allowed to rely on.

export type SeedName = 'demo' | 'large' | 'empty';

export interface LargeSeedOptions {
  members?: number;
  files?: number;
  groups?: number;
  folderDepth?: number;
}

export interface EmulatorOptions {
  port: number;
  host: '127.0.0.1';
  service: string;
  seed: SeedName;
  large?: LargeSeedOptions;
  latencyMs: number;
  jitterMs: number;
  /** count 0 disables the limiter. */
  rateLimit: { count: number; windowSeconds: number };
  tokenLifetimeSeconds: number;
  dataFile?: string;
  quiet?: boolean;
}

export interface EmulatorStats {
  requests: number;
  tokenRequests: number;
  rateLimited: number;
  byRoute: Record<string, number>;
}

export type FaultKind = 'status' | 'rate-limit' | 'truncated-json' | 'malformed-json' | 'reset' | 'slow-body' | 'latency';

export interface FaultRule {
  kind: FaultKind;
  status?: 500 | 503;
  retryAfterSeconds?: number;
  share?: number;
  count?: number;
  path?: string;
  method?: string;
  delayMs?: number;
  jitterMs?: number;
}

export interface Emulator {
  readonly url: string;
  readonly port: number;
  stop(): Promise<void>;
  setFaults(rules: FaultRule[]): void;
  clearFaults(): void;
  expireAllTokens(): void;
  revokeApplication(clientId: string): void;
  stats(): EmulatorStats;
  resetStats(): void;
  reset(seed?: SeedName): void;
}

export const DEFAULT_OPTIONS: EmulatorOptions = {
  port: 0,
  host: '127.0.0.1',
  service: 'portal',
  seed: 'demo',
  latencyMs: 0,
  jitterMs: 0,
  rateLimit: { count: 2000, windowSeconds: 300 },
  tokenLifetimeSeconds: 1800,
};

export const DEFAULT_LARGE: Required<LargeSeedOptions> = { members: 20000, files: 50000, groups: 500, folderDepth: 5 };
