import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { request, Agent } from 'node:http';
import { startEmulator } from '../../emulator';

void describe('emulator as a library', () => {
  void test('binds 127.0.0.1 on a free port and reports it', async () => {
    const a = await startEmulator({ quiet: true });
    const b = await startEmulator({ quiet: true, seed: 'empty' });
    try {
      assert.match(a.url, /^http:\/\/127\.0\.0\.1:\d+$/);
      assert.notEqual(a.port, 0);
      assert.notEqual(a.port, b.port);
      assert.equal(a.url, `http://127.0.0.1:${a.port}`);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  void test('stop() closes idle keep-alive connections and resolves promptly; stopping twice is fine', async () => {
    const emu = await startEmulator({ quiet: true });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const get = () =>
      new Promise<number>((resolve, reject) => {
        const req = request(`${emu.url}/nowhere`, { agent }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        });
        req.on('error', reject);
        req.end();
      });
    assert.equal(await get(), 404);
    assert.equal(await get(), 404);
    let closed = false;
    const sockets = Object.values(agent.freeSockets).flat();
    assert.equal(sockets.length, 1, 'a keep-alive socket is open');
    sockets[0]?.on('close', () => {
      closed = true;
    });
    await emu.stop();
    await emu.stop();
    // Bounded (60 s) only so a socket left open fails instead of hanging.
    for (let i = 0; i < 2400 && !closed; i++) await new Promise((r) => setTimeout(r, 25));
    assert.ok(closed, 'the idle keep-alive socket was closed by stop()');
    await assert.rejects(fetch(`${emu.url}/nowhere`));
    agent.destroy();
  });

  void test('stop() also ends a response that is being dribbled slowly', async () => {
    const emu = await startEmulator({ quiet: true });
    emu.setFaults([{ kind: 'slow-body', delayMs: 60_000 }]);
    const res = await fetch(`${emu.url}/nowhere`);
    assert.equal(res.status, 404);
    const body = res.text().then(
      () => 'ended',
      () => 'aborted',
    );
    await emu.stop();
    assert.equal(await body, 'aborted');
  });

  void test('invalid options are rejected', async () => {
    await assert.rejects(startEmulator({ service: 'Bad Name', quiet: true }), /service/);
    await assert.rejects(startEmulator({ port: 70000, quiet: true }), /port/);
    await assert.rejects(startEmulator({ tokenLifetimeSeconds: 0, quiet: true }), /tokenLifetimeSeconds/);
  });
});
