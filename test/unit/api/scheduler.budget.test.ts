// The rate budget and concurrency cap, against an emulator whose limit is scaled down.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { emulator, enrolledClient, makeClient, plainServer, type Emulator } from './helpers';

void describe('rate budget', () => {
  let emu: Emulator;
  // The portal's rate clock: the wall clock, which the control test stops while its burst arrives, so the burst is
  // over the limit however slowly a busy machine sends it; the first refusal starts it again, for Retry-After.
  let stoppedAt: number | undefined;
  let lag = 0;
  const rateClock = () => {
    if (stoppedAt !== undefined && emu.stats().rateLimited > 0) {
      lag = Date.now() - stoppedAt;
      stoppedAt = undefined;
    }
    return stoppedAt ?? Date.now() - lag;
  };
  before(async () => {
    emu = await emulator({ rateLimit: { count: 20, windowSeconds: 2 }, clock: rateClock });
  });
  after(async () => {
    await emu.stop();
  });

  void test("a client with the portal's budget sends 60 requests at once and is never refused", async () => {
    emu.reset();
    const t = await enrolledClient(emu, { requestBudget: { count: 20, windowMs: 2000 } });
    emu.resetStats();
    const results = await Promise.all(Array.from({ length: 60 }, () => t.client.v3.userinfo()));
    assert.equal(results.length, 60);
    assert.equal(emu.stats().rateLimited, 0);
    assert.ok(t.client.budget.used() <= t.client.budget.limit);
    assert.equal(t.client.budget.limit, 20);
    assert.equal(t.client.budget.windowMs, 2000);
    assert.ok(
      t.logs.some((l) => (l.queuedMs ?? 0) > 0),
      'requests queued instead of being sent',
    );
    t.client.close();
  });

  void test('control: with a larger budget the portal refuses some, and Retry-After still gets every call through', async () => {
    emu.reset();
    // The previous test's window is over at once: the portal's clock moves past it, where waiting would take 2 s.
    lag -= 2_100;
    const t = await enrolledClient(emu, {
      requestBudget: { count: 1000, windowMs: 2000 },
      retry: { rateLimitAttempts: 6 },
    });
    emu.resetStats();
    stoppedAt = rateClock();
    const results = await Promise.all(Array.from({ length: 30 }, () => t.client.v3.userinfo()));
    assert.equal(results.length, 30);
    assert.ok(emu.stats().rateLimited > 0, 'the emulator limit is real');
    t.client.close();
  });

  void test('never more than maxConcurrent requests in flight', async () => {
    let inFlight = 0;
    let peak = 0;
    const server = await plainServer((req, res) => {
      if (req.url?.startsWith('/oauth/token')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ access_token: 'concurrency-token', expires_in: 600 }));
        return;
      }
      inFlight++;
      peak = Math.max(peak, inFlight);
      setTimeout(() => {
        inFlight--;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('[]');
      }, 20);
    });
    const { client } = makeClient(server, {
      maxConcurrent: 3,
      credentials: { kind: 'client', clientId: 'c', clientSecret: 's' },
    });
    await Promise.all(Array.from({ length: 15 }, () => client.v3.accounts.list()));
    assert.equal(peak, 3);
    client.close();
    await server.close();
  });
});
