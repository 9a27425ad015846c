import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertError, startHarness } from './helpers';
import { testClock } from '../../support/clock';

void describe('rate limit', () => {
  void test('20 per 2 s: the 21st request is 429 with Retry-After; token requests count; control requests do not', async () => {
    const clock = testClock();
    const h = await startHarness({ rateLimit: { count: 20, windowSeconds: 2 }, clock: clock.now });
    try {
      const token = await h.login();
      for (let i = 0; i < 5; i++) assert.equal((await h.control('GET', '/stats')).status, 200);
      for (let i = 0; i < 19; i++)
        assert.equal((await h.call('GET', '/v3/userinfo', { token })).status, 200, `request ${i + 2}`);
      const blocked = await h.call('GET', '/v3/userinfo', { token });
      assertError(blocked, 429, 'rate_limited');
      const retryAfter = Number(blocked.headers.get('retry-after'));
      assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 2, `Retry-After ${retryAfter}`);
      const tokenBlocked = await h.call(
        'GET',
        '/oauth/token?grant_type=password&client_id=portal-mobile&username=demo&password=demo',
      );
      assert.equal(tokenBlocked.status, 429, 'the token endpoint is limited too');
      assert.equal(h.emu.stats().rateLimited, 2);
      assert.equal((await h.control('GET', '/stats')).status, 200, 'control endpoint is never limited');

      // Sliding window: just before the oldest request ages out, still refused; once it has, let in again.
      clock.advance(1999);
      assert.equal((await h.call('GET', '/v3/userinfo', { token })).status, 429);
      clock.advance(1);
      assert.equal((await h.call('GET', '/v3/userinfo', { token })).status, 200);
    } finally {
      await h.stop();
    }
  });

  void test('refused requests do not extend the block', async () => {
    const clock = testClock();
    const h = await startHarness({ rateLimit: { count: 3, windowSeconds: 1 }, clock: clock.now });
    try {
      for (let i = 0; i < 3; i++) assert.equal((await h.call('GET', '/nowhere')).status, 404);
      // Many refused requests in a row, while time passes...
      for (let i = 0; i < 10; i++) {
        clock.advance(90);
        assert.equal((await h.call('GET', '/nowhere')).status, 429);
      }
      // ...and the client is let in once the accepted three age out (the refused ones never counted).
      clock.advance(100);
      assert.equal((await h.call('GET', '/nowhere')).status, 404);
    } finally {
      await h.stop();
    }
  });

  void test('count 0 disables the limiter', async () => {
    const h = await startHarness({ rateLimit: { count: 0, windowSeconds: 1 } });
    try {
      for (let i = 0; i < 30; i++) assert.equal((await h.call('GET', '/nowhere')).status, 404);
    } finally {
      await h.stop();
    }
  });
});
