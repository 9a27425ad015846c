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

export type FaultKind =
  | 'status' | 'rate-limit' | 'truncated-json' | 'malformed-json' | 'reset' | 'slow-body' | 'latency'
  | 'huge-body' | 'drip' | 'oversized-page' | 'error-body';

/** The body of an answer whose shape the spec leaves open. */
export type ErrorShape = 'empty' | 'text' | 'html';

export interface FaultRule {
  kind: FaultKind;
  /** `status`: 500 or 503. `error-body`: any 400-599. */
  status?: number;
  retryAfterSeconds?: number;
  share?: number;
  count?: number;
  path?: string;
  method?: string;
  delayMs?: number;
  jitterMs?: number;
  /** `huge-body`: the body's length in bytes (0 to 2 GiB); required for that kind. */
  bytes?: number;
  /** `huge-body`: false sends the body chunked, without a Content-Length header (default true). */
  contentLength?: boolean;
  /** `oversized-page`: how many times the rows asked for the answer carries (2-1000, default 10). */
  factor?: number;
  /** `error-body`: the body's shape (default `html`). */
  shape?: ErrorShape;
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
