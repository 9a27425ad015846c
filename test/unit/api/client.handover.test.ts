// Sign-in proves the new application's secret with one client-credentials grant; the client the extension builds
// next starts with that token (initialTokens / tokens()) instead of asking for a third one.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { enrolledClient, makeClient, emulatorSuite } from './helpers';

void describe('token handover', () => {
  const s = emulatorSuite();

  void test('a new client given the enrolled tokens makes no token request on its first call', async () => {
    const enrolled = await enrolledClient(s.emu);
    const tokens = enrolled.client.tokens();
    assert.ok(tokens);
    assert.equal(tokens.clientId, enrolled.clientId);
    enrolled.client.close();
    s.emu.resetStats();
    const next = makeClient(s.emu, {
      credentials: { kind: 'client', clientId: enrolled.clientId, clientSecret: enrolled.clientSecret },
      initialTokens: tokens,
    });
    assert.equal((await next.client.v3.userinfo()).name, 'demo');
    assert.equal(s.emu.stats().tokenRequests, 0);
    assert.deepEqual(
      next.logs.map((l) => l.path),
      ['/v3/userinfo'],
    );
    // The tokens are still renewed with the credentials when they die.
    s.emu.expireAllTokens();
    assert.equal((await next.client.v3.userinfo()).name, 'demo');
    assert.equal(s.emu.stats().tokenRequests, 1);
    next.client.close();
  });

  void test('tokens issued to another client id are not used', async () => {
    const a = await enrolledClient(s.emu);
    const b = await enrolledClient(s.emu);
    s.emu.resetStats();
    const next = makeClient(s.emu, {
      credentials: { kind: 'client', clientId: b.clientId, clientSecret: b.clientSecret },
      initialTokens: a.client.tokens(),
    });
    assert.equal((await next.client.v3.userinfo()).name, 'demo');
    assert.equal(s.emu.stats().tokenRequests, 1, "its own grant, not the other application's token");
    for (const c of [a.client, b.client, next.client]) c.close();
  });
});
