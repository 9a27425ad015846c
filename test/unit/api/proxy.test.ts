// Proxies: an https:// portal goes through the configured proxy (CONNECT), unless NO_PROXY / http.noProxy name it;
// a loopback portal never does, whatever the settings say. The portal here is the emulator behind a small TLS
// front (the emulator speaks plain http), reached as `portal.test`; the proxy is a tiny CONNECT server.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect as netConnect, type AddressInfo, type Socket } from 'node:net';
import { createServer as createTlsServer, type Server as TlsServer } from 'node:tls';
import { resolveProxy } from '../../../src/api';
import {
  closedPort,
  emulator,
  enrolledClient,
  fixedLookup,
  kind,
  makeClient,
  plainServer,
  selfSignedCert,
  type Emulator,
} from './helpers';

void describe('proxy', () => {
  let emu: Emulator;
  let proxy: Awaited<ReturnType<typeof plainServer>>;
  let front: TlsServer | undefined;
  let pem: ReturnType<typeof selfSignedCert>;
  let portal = '';
  let forwarded: string[] = [];
  let tunnels: string[] = [];
  const sockets = new Set<Socket>();

  before(async () => {
    emu = await emulator();
    pem = selfSignedCert('portal.test');
    if (pem) {
      // TLS in front of the emulator, so that an https:// portal exists on this machine.
      front = createTlsServer(pem, (tls) => {
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
    proxy.server.on('connect', (req, socket: Socket, head) => {
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
    });
  });
  after(async () => {
    for (const s of sockets) s.destroy();
    await proxy.close();
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
    const c = await enrolledClient({ url: portal }, { proxy: settings, ca: pem.cert.toString() });
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
      const c = await enrolledClient({ url: portal }, { proxy: settings, ca: pem.cert.toString(), lookup });
      assert.equal((await c.client.v3.userinfo()).name, 'demo');
      assert.deepEqual(tunnels, [], 'nothing went through the proxy');
      assert.ok(lookup.asked.includes('portal.test'), 'the portal was resolved and reached directly');
      c.client.close();
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
