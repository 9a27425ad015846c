import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Session, type TokenEndpoint } from '../../../src/api/grants';
import { PortalError } from '../../../src/api/errors';
import { SecretRegistry } from '../../../src/api/redact';

// No HTTP here: the token endpoint is the seam Session is built on, and the emulator never echoes a
// credential back, which is the case this test needs.
void test('a sign-out error that quotes the server is masked before the credentials are forgotten', async () => {
  const secret = 'client-secret-7f3a9c2e';
  const echoing: TokenEndpoint = {
    requestToken: async () => {
      throw new PortalError({
        kind: 'auth',
        endpoint: 'POST /oauth/token',
        status: 401,
        code: 'invalid_client',
        serverMessage: `unknown secret ${secret}`,
        message: `The portal refused ${secret}.`,
      });
    },
  };
  const notified: PortalError[] = [];
  const session = new Session(
    {
      endpoint: echoing,
      staticClientId: 'portal-mobile',
      secrets: new SecretRegistry(),
      host: '127.0.0.1',
      onSignedOut: (e) => notified.push(e),
    },
    { kind: 'client', clientId: 'app-1', clientSecret: secret },
  );
  const error = await session.accessToken('GET /v3/userinfo').then(
    () => undefined,
    (e: unknown) => e,
  );
  assert.ok(error instanceof PortalError && error.kind === 'signed-out', String(error));
  assert.equal(notified.length, 1);
  for (const e of [error, notified[0]]) {
    assert.ok(!JSON.stringify(e).includes(secret), `leaked: ${JSON.stringify(e)}`);
    assert.ok(!(e?.message ?? '').includes(secret));
  }
});
