// npm run emulator -- --port 8787 [--seed demo|large|empty|hostile] [--profile default|literal]
//   [--missing-reads ROUTE_ID,...] [--latency MS] [--jitter MS] [--rate-limit COUNT/SECONDS] [--token-lifetime SECONDS] [--data FILE] [--service NAME]
//   [--fault-status-share SHARE] [--fault-status 500|503] [--members N] [--files N] [--groups N] [--folder-depth N]
//   [--guest-shares N] [--invites N] [--quiet]
import { parseArgs } from 'node:util';
import {
  PROFILES,
  ROUTE_IDS,
  SEEDS,
  startEmulator,
  type EmulatorOptions,
  type FaultRule,
  type LargeSeedOptions,
  type RouteId,
} from './index';

function fail(message: string): never {
  console.error(`emulator: ${message}`);
  process.exit(2);
}

function int(raw: string | undefined, flag: string, min = 0): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < min) fail(`--${flag} needs a whole number of at least ${min}, got ${raw}`);
  return Number(raw);
}

function routeIds(raw: string): RouteId[] {
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map(
      (id) =>
        ROUTE_IDS.find((known) => known === id) ??
        fail(`--missing-reads: unknown route id ${id}; known: ${ROUTE_IDS.join(', ')}`),
    );
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '8787' },
      seed: { type: 'string', default: 'demo' },
      profile: { type: 'string', default: 'default' },
      'missing-reads': { type: 'string' },
      latency: { type: 'string' },
      jitter: { type: 'string' },
      'rate-limit': { type: 'string' },
      'token-lifetime': { type: 'string' },
      data: { type: 'string' },
      service: { type: 'string' },
      'fault-status-share': { type: 'string' },
      'fault-status': { type: 'string' },
      members: { type: 'string' },
      files: { type: 'string' },
      groups: { type: 'string' },
      'folder-depth': { type: 'string' },
      'guest-shares': { type: 'string' },
      invites: { type: 'string' },
      quiet: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const seed =
    SEEDS.find((s) => s === values.seed) ?? fail(`--seed must be one of ${SEEDS.join(', ')}, got ${values.seed}`);
  const profile =
    PROFILES.find((p) => p === values.profile) ??
    fail(`--profile must be one of ${PROFILES.join(', ')}, got ${values.profile}`);
  const options: Partial<EmulatorOptions> = { port: int(values.port, 'port'), seed, profile, quiet: values.quiet };
  if (values['missing-reads'] !== undefined) options.missingReads = routeIds(values['missing-reads']);
  options.latencyMs = int(values.latency, 'latency');
  options.jitterMs = int(values.jitter, 'jitter');
  options.tokenLifetimeSeconds = int(values['token-lifetime'], 'token-lifetime', 1);
  if (values['rate-limit'] !== undefined) {
    const m = /^(\d+)\/(\d+)$/.exec(values['rate-limit']);
    if (!m) fail(`--rate-limit needs COUNT/SECONDS, e.g. 2000/300, got ${values['rate-limit']}`);
    options.rateLimit = { count: Number(m[1]), windowSeconds: Math.max(1, Number(m[2])) };
  }
  if (values.data) options.dataFile = values.data;
  if (values.service) options.service = values.service;
  const large: LargeSeedOptions = {
    members: int(values.members, 'members'),
    files: int(values.files, 'files'),
    groups: int(values.groups, 'groups', 1),
    folderDepth: int(values['folder-depth'], 'folder-depth'),
    guestShares: int(values['guest-shares'], 'guest-shares'),
    invites: int(values.invites, 'invites'),
  };
  options.large = Object.fromEntries(Object.entries(large).filter(([, v]) => v !== undefined));
  for (const k of Object.keys(options) as Array<keyof EmulatorOptions>) if (options[k] === undefined) delete options[k];

  const emulator = await startEmulator(options).catch((e: unknown) => fail(e instanceof Error ? e.message : String(e)));
  if (values['fault-status-share'] !== undefined) {
    const share = Number(values['fault-status-share']);
    if (!(share >= 0 && share <= 1)) fail('--fault-status-share needs a number from 0 to 1');
    const status = values['fault-status'] === '503' ? 503 : 500;
    const rule: FaultRule = { kind: 'status', status, share };
    emulator.setFaults([rule]);
  }
  console.log(`Portal emulator listening on ${emulator.url}`);

  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    console.log(`Portal emulator stopping (${signal})`);
    emulator.stop().then(
      () => process.exit(0),
      (e: unknown) => {
        console.error(e);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

void main();
