import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertError, startHarness } from './helpers';

void describe('rate limit', () => {
  void test('20 per 2 s: the 21st request is 429 with Retry-After; token requests count; control requests do not', async () => {
    const h = await startHarness({ rateLimit: { count: 20, windowSeconds: 2 } });
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

      // Sliding window: once the oldest requests age out, requests are let in again (bounded wait).
      let status = 429;
      for (let i = 0; i < 40 && status === 429; i++) {
        await new Promise((r) => setTimeout(r, 100));
        status = (await h.call('GET', '/v3/userinfo', { token })).status;
      }
      assert.equal(status, 200);
    } finally {
      await h.stop();
    }
  });

  void test('refused requests do not extend the block', async () => {
    const h = await startHarness({ rateLimit: { count: 3, windowSeconds: 1 } });
    try {
      for (let i = 0; i < 3; i++) assert.equal((await h.call('GET', '/nowhere')).status, 404);
      // Many refused requests in a row...
      for (let i = 0; i < 10; i++) assert.equal((await h.call('GET', '/nowhere')).status, 429);
      // ...and the client is still let in once the accepted three age out.
      let status = 429;
      for (let i = 0; i < 30 && status === 429; i++) {
        await new Promise((r) => setTimeout(r, 100));
        status = (await h.call('GET', '/nowhere')).status;
      }
      assert.equal(status, 404);
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
