// Requests go through a configured proxy (absolute-URI forwarding for an http:// portal), unless NO_PROXY says not.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { connect as netConnect } from 'node:net';
import { closedPort, emulator, enrolledClient, kind, makeClient, plainServer, type Emulator } from './helpers';

void describe('proxy', () => {
  let emu: Emulator;
  let proxy: Awaited<ReturnType<typeof plainServer>>;
  let forwarded: string[] = [];
  let tunnels = 0;

  before(async () => {
    emu = await emulator();
    proxy = await plainServer((req, res) => {
      // A forward proxy receives the absolute URI.
      const target = new URL(req.url ?? '');
      forwarded.push(`${req.method} ${target.pathname}`);
      const upstream = httpRequest({ host: target.hostname, port: target.port, path: `${target.pathname}${target.search}`, method: req.method, headers: req.headers }, (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      });
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    });
    proxy.server.on('connect', (req, socket, head) => {
      tunnels++;
      const [host, port] = (req.url ?? '').split(':');
      const s = netConnect(Number(port), host ?? '127.0.0.1', () => {
        socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        s.write(head);
        s.pipe(socket);
        socket.pipe(s);
      });
      s.on('error', () => socket.destroy());
      socket.on('error', () => s.destroy());
    });
  });
  after(async () => {
    await proxy.close();
    await emu.stop();
  });

  void test('every request goes through the proxy', async () => {
    forwarded = [];
    const t = await enrolledClient(emu, { proxy: { url: proxy.url } });
    assert.equal((await t.client.v3.userinfo()).name, 'demo');
    assert.equal(forwarded.length, t.logs.length);
    assert.ok(forwarded.includes('POST /oauth/token'));
    assert.ok(forwarded.includes('GET /v3/userinfo'));
    assert.equal(tunnels, 0, 'http:// portals are forwarded, not tunnelled');
    t.client.close();
  });

  void test('NO_PROXY entries bypass it', async () => {
    forwarded = [];
    const t = await enrolledClient(emu, { proxy: { url: proxy.url, noProxy: ['127.0.0.1'] } });
    await t.client.v3.userinfo();
    assert.equal(forwarded.length, 0);
    t.client.close();
  });

  void test('a proxy that is down is a network error naming the proxy', async () => {
    const port = await closedPort();
    const { client } = makeClient(emu, { proxy: { url: `http://127.0.0.1:${port}` }, retry: { attempts: 1 } });
    await assert.rejects(client.signIn({ kind: 'password', username: 'demo', password: 'demo' }), kind('network', (e) => assert.match(e.message, new RegExp(`proxy 127\\.0\\.0\\.1:${port}`))));
    client.close();
  });
});
