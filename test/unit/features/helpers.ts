// Shared setup for the feature-core tests: a real emulator in-process and a client signed in to it.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { startEmulator, type Emulator, type EmulatorOptions } from '../../emulator';
import type { AccessMatrix } from '../../../src/features/members/access/store/accessMatrix';
import { AccessStoreFile } from '../../../src/features/members/access/store/accessStoreFile';
import { readMatrix } from '../../../src/features/members/access/store/matrixRead';
import { PortalClient, type PortalClientOptions } from '../../../src/api';

export type { Emulator };

/** Fast retries so fault tests stay quick. */
const FAST_RETRY = { backoffMs: 5, maxBackoffMs: 20, defaultRetryAfterMs: 10 } as const;

export async function emulator(options: Partial<EmulatorOptions> = {}): Promise<Emulator> {
  return startEmulator({ port: 0, seed: 'demo', quiet: true, ...options });
}

/** A client signed in as `demo` (super administrator of every seeded organisation). */
export async function demoClient(emu: Emulator, options: Partial<PortalClientOptions> = {}): Promise<PortalClient> {
  const client = new PortalClient({ baseUrl: emu.url, service: 'portal', retry: FAST_RETRY, ...options });
  await client.signIn({ kind: 'password', username: 'demo', password: 'demo' });
  return client;
}

/** API requests the emulator has seen (token requests left out), optionally only those whose route matches. */
export function apiRequests(emu: Emulator, route?: RegExp): number {
  let n = 0;
  for (const [key, count] of Object.entries(emu.stats().byRoute)) {
    if (key.includes('/oauth/token')) continue;
    if (!route || route.test(key)) n += count;
  }
  return n;
}

export async function accountIdOf(client: PortalClient, name: string): Promise<number> {
  const a = (await client.v3.accounts.list()).find((x) => x.name === name);
  if (!a) throw new Error(`no account ${name}`);
  return a.id;
}

export async function groupIdOf(client: PortalClient, account: number, name: string): Promise<number> {
  const g = (await client.v2.groups.list(account)).find((x) => x.name === name);
  if (!g) throw new Error(`no group ${name}`);
  return g.id;
}

/** Runs `run` with a fresh emulator and a demo client, and stops both after it, also when it or the sign-in fails. */
export async function withDemoClient(
  run: (emu: Emulator, client: PortalClient) => Promise<void>,
  options: Partial<EmulatorOptions> = {},
  clientOptions: Partial<PortalClientOptions> = {},
): Promise<void> {
  const emu = await emulator(options);
  const client = await demoClient(emu, clientOptions).catch(async (error: unknown) => {
    await emu.stop();
    throw error;
  });
  try {
    await run(emu, client);
  } finally {
    client.close();
    await emu.stop();
  }
}

export interface AcmePortal {
  emu: Emulator;
  client: PortalClient;
  acme: number;
}

/** withDemoClient, for the tests that work in the demo organisation acme. */
export function withAcme(
  run: (p: AcmePortal) => Promise<void>,
  options: Partial<EmulatorOptions> = {},
  clientOptions: Partial<PortalClientOptions> = {},
): Promise<void> {
  return withDemoClient(
    async (emu, client) => run({ emu, client, acme: await accountIdOf(client, 'acme') }),
    options,
    clientOptions,
  );
}

/** An organisation's whole access matrix, read fresh into a store file in `folder` (the read must finish). */
export async function readWholeMatrix(client: PortalClient, account: number, folder: string): Promise<AccessMatrix> {
  const store = new AccessStoreFile(path.join(folder, 'acme.jsonl'));
  const matrix = store.load();
  const read = await readMatrix(client, account, matrix, store, {
    signal: new AbortController().signal,
    maxAgeMs: 3_600_000,
    concurrency: 4,
  });
  assert.equal(read.outcome, 'done');
  return matrix;
}
