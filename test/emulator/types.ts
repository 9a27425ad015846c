// The emulator's public surface: what tests, benchmarks and the demo are allowed to rely on.

export type SeedName = 'demo' | 'large' | 'empty' | 'hostile';
export const SEEDS: readonly SeedName[] = ['demo', 'large', 'empty', 'hostile'];

/**
 * `default`: today's emulator, with the conveniences listed in the README. `literal`: exactly what
 * the spec says and nothing more (plain arrays unpaged, GET-only token endpoint, open error shapes,
 * invented parameters ignored, expires_in in minutes, "not shown" reads absent).
 */
export type Profile = 'default' | 'literal';
export const PROFILES: readonly Profile[] = ['default', 'literal'];

/** Uploads: observed in public clients, not in the spec (the literal profile has none of them). */
const UPLOAD_ROUTE_IDS = [
  'v2.upload.data',
  'v2.upload.data.folder',
  'v2.upload.complete',
  'v2.upload.complete.folder',
  'v2.files.index',
  'v2.files.index.folder',
  'v3.tempFiles.create',
  'v3.file.create',
] as const;

/** Every route's id: `<version>.<resource>.<action>`. `missingReads` takes these. */
export const ROUTE_IDS = [
  'oauth.token',
  'oauth.token.post',
  'v3.userinfo',
  'v3.accounts.list',
  'v3.account.get',
  'v3.account.update',
  'v3.subscription.get',
  'v3.components.list',
  'v3.applications.list',
  'v3.application.create',
  'v3.application.get',
  'v3.application.update',
  'v3.application.delete',
  'v3.members.list',
  'v3.member.create',
  'v3.member.get',
  'v3.member.update',
  'v3.member.delete',
  'v3.member-tags.list',
  'v3.member-tags.members',
  'v3.file.download',
  'v2.application.create',
  'v2.organisations.list',
  'v2.organisation.get',
  'v2.custom',
  'v2.groups.list',
  'v2.group.get',
  'v2.group.create',
  'v2.group.update',
  'v2.group.delete',
  'v2.group.duplicate',
  'v2.members.list',
  'v2.member.get',
  'v2.member.create',
  'v2.member.update',
  'v2.member.delete',
  'v2.files.list',
  'v2.file.get',
  'v2.files.children',
  ...UPLOAD_ROUTE_IDS,
  // Guest shares, invitations and the sign-in audit: observed in public clients, not in the spec (literal: none).
  'v3.shares.list',
  'v3.invites.list',
  'v3.invite.create',
  'v3.audit.list',
] as const;
export type RouteId = (typeof ROUTE_IDS)[number];

/** The supporting reads the spec marks "not shown"; the literal profile leaves them out. */
export const LITERAL_MISSING_READS: readonly RouteId[] = ['v3.application.get', 'v2.file.get'];

/** The upload endpoints come from observation only: the spec has no file writes, so a literal portal has none. */
export const LITERAL_MISSING_WRITES: readonly RouteId[] = UPLOAD_ROUTE_IDS;

/** Guest shares, invitations and the sign-in audit come from observation only; a literal portal has none. */
export const LITERAL_MISSING_OBSERVED: readonly RouteId[] = [
  'v3.shares.list',
  'v3.invites.list',
  'v3.invite.create',
  'v3.audit.list',
];

export interface LargeSeedOptions {
  members?: number;
  files?: number;
  groups?: number;
  folderDepth?: number;
  /** Guest shares of `bulk`'s files (default 0; at most 100,000). */
  guestShares?: number;
  /** Invitations, a tenth of them no longer pending (default 0; at most 100,000). */
  invites?: number;
  /** Sign-in audit events (logins, a tenth of them sign-ups) of the generated members, in turn (default 0). */
  signIns?: number;
}

export interface EmulatorOptions {
  port: number;
  host: '127.0.0.1';
  service: string;
  seed: SeedName;
  profile: Profile;
  /**
   * Routes that do not exist on this portal (any profile): a request to one is answered like any
   * unknown path (404; counted under `<METHOD> (unmatched)`). The literal profile adds
   * LITERAL_MISSING_READS to these.
   */
  missingReads: RouteId[];
  large?: LargeSeedOptions;
  latencyMs: number;
  jitterMs: number;
  /** count 0 disables the limiter. */
  rateLimit: { count: number; windowSeconds: number };
  /**
   * The portal's clock (ms since the epoch): the rate window and token lifetimes run on it; default Date.now. A test
   * that asserts either injects its own and moves it: with the wall clock, a slow machine let the 21st request of a
   * 20-per-2-s window through, and a 1 s token could die before the test's first call.
   */
  clock?: () => number;
  tokenLifetimeSeconds: number;
  dataFile?: string;
  quiet?: boolean;
  /**
   * Group assignment changes leave the member's `lastModified` where it was, as a portal may (the spec does not say
   * that it moves). Default false: the member's `lastModified` moves with their groups.
   */
  groupChangesKeepLastModified?: boolean;
}

export interface EmulatorStats {
  requests: number;
  tokenRequests: number;
  rateLimited: number;
  byRoute: Record<string, number>;
  /** API requests the emulator has begun and not yet finished with (stats/reset leaves them counted). */
  inFlight: number;
}

/** What the pipeline counts, and stats/reset clears. */
export type EmulatorCounts = Omit<EmulatorStats, 'inFlight'>;

export type FaultKind =
  | 'status'
  | 'rate-limit'
  | 'truncated-json'
  | 'malformed-json'
  | 'reset'
  | 'slow-body'
  | 'latency'
  | 'huge-body'
  | 'drip'
  | 'oversized-page'
  | 'error-body'
  | 'ignore-writes';

/** The body of an answer whose shape the spec leaves open. */
export type ErrorShape = 'empty' | 'text' | 'html';

export interface FaultRule {
  kind: FaultKind;
  /** `status`: 500 or 503. `error-body`: any 400-599. */
  status?: number;
  retryAfterSeconds?: number;
  share?: number;
  count?: number;
  /** The rule fires for requests whose path starts with this one (the query left out)... */
  path?: string;
  /** ...or, when true, only for that path itself: a list's reads, and not its members'. */
  exactPath?: boolean;
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

/** Another's change to a file record's content, made on the portal without an upload (see fileEdits.ts). */
export interface FileEdit {
  id: number;
  text: string;
  /** Leave `lastModified` where it was (a portal that does not move it). */
  keepLastModified?: boolean;
  /** Leave `versions` where it was (a portal that does not count the change). */
  keepVersions?: boolean;
}

export interface Emulator {
  readonly url: string;
  readonly port: number;
  readonly profile: Profile;
  /** The routes this portal lacks: the option's, plus the literal profile's own. */
  readonly missingReads: readonly RouteId[];
  stop(): Promise<void>;
  setFaults(rules: FaultRule[]): void;
  clearFaults(): void;
  /**
   * Sends now every answer that is waiting out a latency (injected or configured): a test holds an answer back with a
   * delay far beyond need, looks at what happens meanwhile, then lets it go, so it never races the machine's speed.
   */
  releaseDelays(): void;
  expireAllTokens(): void;
  revokeApplication(clientId: string): void;
  stats(): EmulatorStats;
  resetStats(): void;
  reset(seed?: SeedName): void;
  /** Another's change to a file record's content (see fileEdits.ts); the control endpoint's `files/edit`. */
  editFile(edit: FileEdit): void;
}

export const DEFAULT_OPTIONS: EmulatorOptions = {
  port: 0,
  host: '127.0.0.1',
  service: 'portal',
  seed: 'demo',
  profile: 'default',
  missingReads: [],
  latencyMs: 0,
  jitterMs: 0,
  rateLimit: { count: 2000, windowSeconds: 300 },
  tokenLifetimeSeconds: 1800,
};

export const DEFAULT_LARGE: Required<LargeSeedOptions> = {
  members: 20000,
  files: 50000,
  groups: 500,
  folderDepth: 5,
  guestShares: 0,
  invites: 0,
  signIns: 0,
};
