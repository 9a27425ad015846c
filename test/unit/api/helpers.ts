// Shared setup for the API tests: a real emulator in-process, clients with captured log lines.
import { execFileSync } from 'node:child_process';
import type { LookupAddress } from 'node:dns';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { startEmulator, type Emulator, type EmulatorOptions } from '../../emulator';
import {
  PortalClient,
  PortalError,
  type LookupFunction,
  type PortalClientOptions,
  type PortalErrorKind,
  type RequestLogLine,
} from '../../../src/api';
import { tempDir } from '../../support/tempDir';
import { suiteFixture } from '../suiteFixture';

export type { Emulator };

export async function emulator(options: Partial<EmulatorOptions> = {}): Promise<Emulator> {
  return startEmulator({ port: 0, seed: 'demo', quiet: true, ...options });
}

/** Fast retries so fault tests stay quick; everything else default. */
export const FAST_RETRY = { backoffMs: 5, maxBackoffMs: 20, defaultRetryAfterMs: 10 } as const;

export interface TestClient {
  client: PortalClient;
  logs: RequestLogLine[];
}

export function makeClient(emu: { url: string }, options: Partial<PortalClientOptions> = {}): TestClient {
  const logs: RequestLogLine[] = [];
  const client = new PortalClient({
    baseUrl: emu.url,
    service: 'portal',
    retry: FAST_RETRY,
    ...options,
    log: (line) => {
      logs.push(line);
      options.log?.(line);
    },
  });
  return { client, logs };
}

export const DEMO = { kind: 'password', username: 'demo', password: 'demo' } as const;

/** A client signed in with the demo password (no application). */
export async function passwordClient(
  emu: { url: string },
  options: Partial<PortalClientOptions> = {},
  credentials: { username: string; password: string } = DEMO,
): Promise<TestClient> {
  const t = makeClient(emu, options);
  await t.client.signIn({ kind: 'password', ...credentials });
  return t;
}

/** A client that signed in with the demo password, enrolled an application and now uses client credentials. */
export async function enrolledClient(
  emu: { url: string },
  options: Partial<PortalClientOptions> = {},
): Promise<TestClient & { clientId: string; clientSecret: string }> {
  const t = await passwordClient(emu, options);
  const { clientId, clientSecret } = await t.client.enrollApplication({
    name: 'unit tests',
    platform: 'OTHER',
    deviceType: 'Other',
  });
  return { ...t, clientId, clientSecret };
}

/** What most endpoint suites start from: an emulator, a client enrolled against it, and the id of the acme organisation. */
export async function startEnrolled(): Promise<{ emu: Emulator; t: TestClient; acme: number }> {
  const emu = await emulator();
  const t = await enrolledClient(emu);
  return { emu, t, acme: await accountId(t.client, 'acme') };
}

/** The hostile seed (names and server text built to trip a client up), signed in with the demo password. */
export async function startHostile(): Promise<{ emu: Emulator; t: TestClient }> {
  const emu = await emulator({ seed: 'hostile' });
  return { emu, t: await passwordClient(emu) };
}

export async function stopEnrolled(emu: Emulator, t: TestClient): Promise<void> {
  t.client.close();
  await emu.stop();
}

/** An emulator on the demo seed and a client signed in with the demo password, with the id of acme. */
export async function startSignedIn(): Promise<{ emu: Emulator; t: TestClient; acme: number }> {
  const emu = await emulator();
  const t = await passwordClient(emu);
  return { emu, t, acme: await accountId(t.client, 'acme') };
}

type Started = { emu: Emulator; t: TestClient; acme: number };
/** What a suite looks up once it has started, beside what every suite gets. */
type More<X> = (started: Started) => Promise<X> | X;

function clientSuite<X extends object>(start: () => Promise<Started>, more?: More<X>): Started & X {
  return suiteFixture(
    async () => {
      const started = await start();
      return { ...started, ...(more ? await more(started) : ({} as X)) };
    },
    ({ emu, t }) => stopEnrolled(emu, t),
  );
}

/** For a describe block: startEnrolled() before its tests, and what `more` looks up then; stopped after them. */
export function enrolledSuite<X extends object = object>(more?: More<X>): Started & X {
  return clientSuite(startEnrolled, more);
}

/** For a describe block: startSignedIn() before its tests, and what `more` looks up then; stopped after them. */
export function signedInSuite<X extends object = object>(more?: More<X>): Started & X {
  return clientSuite(startSignedIn, more);
}

/** For a describe block: startHostile() before its tests, stopped after them. */
export function hostileSuite(): { emu: Emulator; t: TestClient } {
  return suiteFixture(startHostile, ({ emu, t }) => stopEnrolled(emu, t));
}

/** For a describe block: an emulator on the demo seed, and no client (the tests make their own). */
export function emulatorSuite(): { emu: Emulator } {
  return suiteFixture(
    async () => ({ emu: await emulator() }),
    ({ emu }) => emu.stop(),
  );
}

/** Ids by name, looked up through the API rather than hard-coded. */
export async function accountId(client: PortalClient, name: string): Promise<number> {
  const accounts = await client.v3.accounts.list();
  const a = accounts.find((x) => x.name === name);
  if (!a) throw new Error(`no account ${name}`);
  return a.id;
}

export async function groupId(client: PortalClient, account: number, name: string): Promise<number> {
  const groups = await client.v2.groups.list(account);
  const g = groups.find((x) => x.name === name);
  if (!g) throw new Error(`no group ${name}`);
  return g.id;
}

/** assert.rejects predicate: a PortalError of this kind. */
export function kind(expected: PortalErrorKind, check?: (e: PortalError) => void): (e: unknown) => boolean {
  return (e: unknown) => {
    if (!(e instanceof PortalError)) throw new Error(`expected PortalError ${expected}, got ${String(e)}`);
    if (e.kind !== expected) throw new Error(`expected kind ${expected}, got ${e.kind}: ${e.message}`);
    check?.(e);
    return true;
  };
}

/** A tiny HTTP server for "not a portal API" cases. */
export async function plainServer(
  handler: Parameters<typeof createServer>[1],
): Promise<{ url: string; server: Server; close(): Promise<void> }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

export function statusesOf(logs: RequestLogLine[], path: string): Array<number | undefined> {
  return logs.filter((l) => l.path.split('?')[0] === path).map((l) => l.status);
}

/** A self-signed certificate for `name` (PEM), or undefined when openssl is not there to make one. */
export function selfSignedCert(name: string): { key: Buffer; cert: Buffer } | undefined {
  const dir = tempDir('portal-tls-');
  try {
    const san = /^[\d.]+$/.test(name) ? `IP:${name}` : `DNS:${name}`;
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        join(dir, 'k.pem'),
        '-out',
        join(dir, 'c.pem'),
        '-days',
        '2',
        '-subj',
        `/CN=${name}`,
        '-addext',
        `subjectAltName=${san}`,
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(join(dir, 'k.pem')), cert: readFileSync(join(dir, 'c.pem')) };
  } catch {
    return undefined;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A certificate for `name` issued by a certificate authority made here, as a TLS-inspecting proxy presents one
 * issued by a company's own CA: `ca` is what a machine has to trust. Undefined when openssl is not there.
 */
export function issuedByTestCa(name: string): { ca: Buffer; key: Buffer; cert: Buffer } | undefined {
  const dir = tempDir('portal-ca-');
  const at = (f: string) => join(dir, f);
  const run = (args: string[]) => execFileSync('openssl', args, { stdio: 'ignore' });
  try {
    run(
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', at('ca.key'), '-out', at('ca.pem')].concat([
        '-days',
        '2',
        '-subj',
        '/CN=Portal Test Inspecting CA',
      ]),
    );
    run(['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', at('k.pem'), '-out', at('c.csr'), '-subj', `/CN=${name}`]);
    const san = /^[\d.]+$/.test(name) ? `IP:${name}` : `DNS:${name}`;
    writeFileSync(at('ext.cnf'), `subjectAltName=${san}\n`);
    run(
      ['x509', '-req', '-in', at('c.csr'), '-CA', at('ca.pem'), '-CAkey', at('ca.key'), '-CAcreateserial'].concat([
        '-out',
        at('c.pem'),
        '-days',
        '2',
        '-extfile',
        at('ext.cnf'),
      ]),
    );
    return { ca: readFileSync(at('ca.pem')), key: readFileSync(at('k.pem')), cert: readFileSync(at('c.pem')) };
  } catch {
    return undefined;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Name resolution from a fixed table (what /etc/hosts would say), in both shapes net.connect asks for. */
export function fixedLookup(table: Record<string, string>): LookupFunction & { asked: string[] } {
  const asked: string[] = [];
  const lookup = (
    hostname: string,
    options: { all?: boolean },
    callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    asked.push(hostname);
    const address = table[hostname];
    if (!address) {
      callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname }), '');
      return;
    }
    const family = address.includes(':') ? 6 : 4;
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
  return Object.assign(lookup as LookupFunction, { asked });
}
