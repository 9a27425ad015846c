// Proxies: an https:// portal goes through the configured proxy (CONNECT), unless NO_PROXY / http.noProxy name it;
// a loopback portal never does, whatever the settings say. The portal here is the emulator behind a small TLS
// front (the emulator speaks plain http), reached as `portal.test`; the proxy is a tiny CONNECT server.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import { connect as netConnect, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { createServer as createTlsServer, type Server as TlsServer } from 'node:tls';
import { promisify } from 'node:util';
import { resolveProxy } from '../../../src/api';
import {
  closedPort,
  emulator,
  DEMO,
  enrolledClient,
  fixedLookup,
  issuedByTestCa,
  kind,
  makeClient,
  plainServer,
  selfSignedCert,
  type Emulator,
} from './helpers';
import { tempDir } from '../../support/tempDir';

void describe('proxy', () => {
  let emu: Emulator;
  let proxy: Awaited<ReturnType<typeof plainServer>>;
  let front: TlsServer | undefined;
  /** The portal's certificate, issued by a CA made here (what a TLS-inspecting proxy presents). */
  let pem: ReturnType<typeof issuedByTestCa>;
  /** An https:// proxy with a certificate nobody trusts. */
  let httpsProxy: HttpsServer | undefined;
  let httpsProxyUrl = '';
  let portal = '';
  let forwarded: string[] = [];
  let tunnels: string[] = [];
  const sockets = new Set<Socket>();

  before(async () => {
    emu = await emulator();
    pem = issuedByTestCa('portal.test');
    if (pem) {
      // TLS in front of the emulator, so that an https:// portal exists on this machine.
      front = createTlsServer({ key: pem.key, cert: pem.cert }, (tls) => {
        const up = netConnect(Number(new URL(emu.url).port), '127.0.0.1');
        sockets.add(tls).add(up);
        tls.pipe(up).pipe(tls);
        up.on('error', () => tls.destroy());
        tls.on('error', () => up.destroy());
      });
      await new Promise<void>((resolve) => front?.listen(0, '127.0.0.1', resolve));
      portal = `https://portal.test:${(front.address() as AddressInfo).port}`;
    }
    proxy = await plainServer((req, res) => {
      forwarded.push(`${req.method} ${req.url}`);
      res.writeHead(502).end();
    });
    const tunnel = (req: IncomingMessage, socket: Socket, head: Buffer) => {
      tunnels.push(req.url ?? '');
      // The proxy resolves portal.test itself: to this machine.
      const port = Number((req.url ?? '').split(':')[1]);
      const s = netConnect(port, '127.0.0.1', () => {
        socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        s.write(head);
        s.pipe(socket);
        socket.pipe(s);
      });
      sockets.add(s).add(socket);
      s.on('error', () => socket.destroy());
      socket.on('error', () => s.destroy());
    };
    proxy.server.on('connect', tunnel);
    const proxyPem = selfSignedCert('127.0.0.1');
    if (proxyPem) {
      httpsProxy = createHttpsServer(proxyPem, (_req, res) => res.writeHead(502).end());
      httpsProxy.on('connect', tunnel);
      await new Promise<void>((resolve) => httpsProxy?.listen(0, '127.0.0.1', resolve));
      httpsProxyUrl = `https://127.0.0.1:${(httpsProxy.address() as AddressInfo).port}`;
    }
  });
  after(async () => {
    for (const s of sockets) s.destroy();
    await proxy.close();
    httpsProxy?.closeAllConnections();
    await new Promise<void>((resolve) => (httpsProxy ? httpsProxy.close(() => resolve()) : resolve()));
    await new Promise<void>((resolve) => (front ? front.close(() => resolve()) : resolve()));
    await emu.stop();
  });

  const reset = () => {
    forwarded = [];
    tunnels = [];
  };

  void test('an https portal: every request goes through the proxy, tunnelled', async (t) => {
    if (!pem) return t.skip('openssl is not available to make a certificate');
    reset();
    const settings = resolveProxy({ baseUrl: portal, httpProxy: proxy.url, env: {} });
    assert.ok(settings);
    const c = await enrolledClient({ url: portal }, { proxy: settings, ca: pem.ca.toString() });
    assert.equal((await c.client.v3.userinfo()).name, 'demo');
    assert.ok(tunnels.length >= 1, 'tunnelled through the proxy');
    assert.ok(tunnels.every((u) => u === new URL(portal).host));
    assert.deepEqual(forwarded, []);
    c.client.close();
  });

  void test('http.noProxy and NO_PROXY entries are honoured: the portal is reached directly', async (t) => {
    if (!pem) return t.skip('openssl is not available to make a certificate');
    const lookup = fixedLookup({ 'portal.test': '127.0.0.1' });
    for (const settings of [
      resolveProxy({ baseUrl: portal, httpProxy: proxy.url, noProxy: ['portal.test'], env: {} }),
      resolveProxy({ baseUrl: portal, noProxy: [], env: { HTTPS_PROXY: proxy.url, NO_PROXY: 'example.com, .test' } }),
    ]) {
      reset();
      assert.ok(settings, 'a proxy is configured');
      const c = await enrolledClient({ url: portal }, { proxy: settings, ca: pem.ca.toString(), lookup });
      assert.equal((await c.client.v3.userinfo()).name, 'demo');
      assert.deepEqual(tunnels, [], 'nothing went through the proxy');
      assert.ok(lookup.asked.includes('portal.test'), 'the portal was resolved and reached directly');
      c.client.close();
    }
  });

  void test('http.proxyStrictSSL false is for the proxy hop only: the portal behind it must present a trusted certificate', async (t) => {
    if (!pem) return t.skip('openssl is not available to make a certificate');
    const lookup = fixedLookup({ 'portal.test': '127.0.0.1' });
    for (const noProxy of [[], ['portal.test']]) {
      reset();
      const settings = resolveProxy({ baseUrl: portal, httpProxy: proxy.url, strictSSL: false, noProxy, env: {} });
      assert.ok(settings);
      // Nothing tells this client to trust the portal's CA.
      const { client } = makeClient({ url: portal }, { proxy: settings, lookup, retry: { attempts: 1 } });
      await assert.rejects(client.signIn(DEMO), kind('tls'), noProxy.length ? 'direct' : 'through the proxy');
      assert.equal(tunnels.length, noProxy.length ? 0 : 1);
      client.close();
    }
  });

  void test("an https proxy: its certificate is checked unless http.proxyStrictSSL is false, the portal's always", async (t) => {
    if (!pem || !httpsProxy) return t.skip('openssl is not available to make a certificate');
    const through = (strictSSL: boolean) =>
      resolveProxy({ baseUrl: portal, httpProxy: httpsProxyUrl, strictSSL, env: {} });
    reset();
    const strict = makeClient({ url: portal }, { proxy: through(true), ca: pem.ca.toString(), retry: { attempts: 1 } });
    await assert.rejects(strict.client.signIn(DEMO), kind('tls'));
    strict.client.close();
    assert.deepEqual(tunnels, [], 'refused at the proxy');
    const lax = makeClient({ url: portal }, { proxy: through(false), ca: pem.ca.toString() });
    await lax.client.signIn(DEMO);
    assert.equal((await lax.client.v3.userinfo()).name, 'demo');
    assert.ok(tunnels.length >= 1, 'tunnelled through the https proxy');
    lax.client.close();
  });

  void test('a portal behind a TLS-inspecting proxy is trusted through NODE_EXTRA_CA_CERTS, as VS Code trusts it', async (t) => {
    if (!pem) return t.skip('openssl is not available to make a certificate');
    const dir = tempDir('portal-extra-ca-');
    const caFile = join(dir, 'inspecting-ca.pem');
    writeFileSync(caFile, pem.ca);
    // Node reads NODE_EXTRA_CA_CERTS when it starts: a process of its own, with the variable set or not.
    const signIn = async (extraCa: string | undefined) => {
      const env = { ...process.env, NODE_EXTRA_CA_CERTS: extraCa };
      if (extraCa === undefined) delete env.NODE_EXTRA_CA_CERTS;
      const child = join(import.meta.dirname, 'tlsTrust.child.ts');
      const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', child, portal, proxy.url], {
        env,
        timeout: 60_000,
      });
      return stdout.trim();
    };
    try {
      assert.equal(await signIn(caFile), 'signed-in');
      assert.match(await signIn(undefined), /^tls: /);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  void test('a loopback portal goes direct, with HTTP_PROXY set and even with a proxy given explicitly', async () => {
    reset();
    const env = { HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url, ALL_PROXY: proxy.url };
    assert.equal(resolveProxy({ baseUrl: emu.url, httpProxy: proxy.url, env }), undefined);
    const c = await enrolledClient(emu, { proxy: { url: proxy.url } });
    assert.equal((await c.client.v3.userinfo()).name, 'demo');
    assert.deepEqual(forwarded, []);
    assert.deepEqual(tunnels, []);
    c.client.close();
  });

  void test('a proxy that is down is a network error naming the proxy', async () => {
    const port = await closedPort();
    const { client } = makeClient(
      { url: 'https://portal.test' },
      { proxy: { url: `http://127.0.0.1:${port}` }, retry: { attempts: 1 } },
    );
    await assert.rejects(
      client.signIn({ kind: 'password', username: 'demo', password: 'demo' }),
      kind('network', (e) => assert.match(e.message, new RegExp(`proxy 127\\.0\\.0\\.1:${port}`))),
    );
    client.close();
  });
});

void test('resolveProxy: setting first, then environment; NO_PROXY and http.noProxy passed on for undici to match', () => {
  assert.equal(
    resolveProxy({ baseUrl: 'https://p.example', httpProxy: 'http://proxy:3128' })?.url,
    'http://proxy:3128',
  );
  assert.equal(
    resolveProxy({ baseUrl: 'https://p.example', env: { https_proxy: 'proxy:8080' } })?.url,
    'http://proxy:8080',
  );
  assert.deepEqual(
    resolveProxy({
      baseUrl: 'https://p.example',
      noProxy: ['corp.example'],
      env: { HTTPS_PROXY: 'http://proxy:1', NO_PROXY: 'p.example, .internal' },
    })?.noProxy,
    ['corp.example', 'p.example', '.internal'],
  );
  assert.equal(resolveProxy({ baseUrl: 'https://p.example', env: {} }), undefined);
  assert.equal(
    resolveProxy({ baseUrl: 'https://p.example', httpProxy: 'http://x:1', strictSSL: false })?.strictSSL,
    false,
  );
});

void test('resolveProxy: a loopback portal never gets a proxy, whatever the settings say', () => {
  for (const baseUrl of ['http://127.0.0.1:8787', 'http://localhost:1', 'http://[::1]:2', 'http://app.localhost:3']) {
    assert.equal(
      resolveProxy({
        baseUrl,
        httpProxy: 'http://proxy:3128',
        env: { HTTP_PROXY: 'http://proxy:1', ALL_PROXY: 'http://proxy:2' },
      }),
      undefined,
      baseUrl,
    );
  }
});
