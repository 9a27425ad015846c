// Known secrets pushed through every path (grants, failures, renewals, bodies, queries, errors) never show up
// in log lines, error messages or stacks.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { PortalError, type PortalClient, type RequestLogLine, type TokenSet } from '../../../src/api';
import { accountId, closedPort, emulator, makeClient, emulatorSuite } from './helpers';

void describe('redaction', () => {
  const s = emulatorSuite();

  void test('no token, password, client secret or two-factor code reaches a log line or an error', async () => {
    const PASSWORD = 'Very-Secret-Pa55word!';
    const WRONG_PASSWORD = 'Wrong-Guess-Pa55word?';
    const NEW_PASSWORD = 'Rotated-Pa55word#2';
    const CODE = '123456';
    const WRONG_CODE = '654321';
    const secrets = new Set<string>([PASSWORD, WRONG_PASSWORD, NEW_PASSWORD, CODE, WRONG_CODE]);
    const logs: RequestLogLine[] = [];
    const errors: unknown[] = [];
    const capture = async (p: Promise<unknown>) => {
      try {
        await p;
      } catch (e) {
        errors.push(e);
      }
    };
    const tokenStore = {
      load: () => undefined,
      save: (t: TokenSet | undefined) => {
        secrets.add(t?.accessToken ?? '');
        secrets.add(t?.refreshToken ?? '');
      },
    };
    const clients: PortalClient[] = [];
    const client = (extra = {}) => {
      const c = makeClient(s.emu, { tokenStore, log: (l) => logs.push(l), ...extra }).client;
      clients.push(c);
      return c;
    };

    // An administrator creates a user with a known password (the password travels in a JSON body).
    const admin = client();
    await admin.signIn({ kind: 'password', username: 'demo', password: 'demo' });
    const acme = await accountId(admin, 'acme');
    await admin.v3.members.create(acme, {
      name: 'Secret Keeper',
      username: 'secret.keeper',
      email: 'secret.keeper@acme.example',
      password: PASSWORD,
    });

    // Password grant: wrong, right; two-factor: missing, wrong, right.
    const user = client();
    await capture(user.signIn({ kind: 'password', username: 'secret.keeper', password: WRONG_PASSWORD }));
    await user.signIn({ kind: 'password', username: 'secret.keeper', password: PASSWORD });
    const twoFa = client();
    await capture(twoFa.signIn({ kind: 'password', username: 'demo-2fa', password: 'demo' }));
    await capture(twoFa.signIn({ kind: 'password', username: 'demo-2fa', password: 'demo', code: WRONG_CODE }));
    await twoFa.signIn({ kind: 'password', username: 'demo-2fa', password: 'demo', code: CODE });

    // A secret typed where it does not belong: a search box (query string) and a failing body.
    await user.v3.userinfo();
    await capture(admin.v3.members.page(acme, { name: PASSWORD }));
    await capture(
      admin.v3.members.create(acme, { name: 'x', username: 'secret.keeper', email: 'bad', password: PASSWORD }),
    );
    await admin.v3.members.update(acme, 'secret.keeper', { password: NEW_PASSWORD });

    // Enrollment: the client secret; then the wrong secret; then renewal after expiry; then revocation.
    const enrolled = await admin.enrollApplication({ name: 'redaction test' });
    secrets.add(enrolled.clientSecret);
    const rotated = await admin.v3.applications.update(enrolled.clientId, { rotateSecret: true });
    secrets.add(rotated.clientSecret ?? '');
    const wrong = client();
    await capture(
      wrong.signIn({ kind: 'client', clientId: enrolled.clientId, clientSecret: `${enrolled.clientSecret}-not` }),
    );
    const app = client();
    await app.signIn({ kind: 'client', clientId: enrolled.clientId, clientSecret: rotated.clientSecret ?? '' });
    secrets.add(await app.accessToken());
    s.emu.expireAllTokens();
    await app.v3.userinfo();
    s.emu.revokeApplication(enrolled.clientId);
    await capture(app.v3.userinfo());
    await capture(app.v3.userinfo());

    // Network failure while holding credentials.
    const port = await closedPort();
    const offline = makeClient(
      { url: `http://127.0.0.1:${port}` },
      { retry: { attempts: 1 }, log: (l) => logs.push(l) },
    ).client;
    clients.push(offline);
    await capture(offline.signIn({ kind: 'password', username: 'secret.keeper', password: PASSWORD }));
    await capture(
      offline.signIn({ kind: 'client', clientId: enrolled.clientId, clientSecret: rotated.clientSecret ?? '' }),
    );

    secrets.delete('');
    assert.ok(errors.length >= 8, `errors were produced (${errors.length})`);
    assert.ok(errors.every((e) => e instanceof PortalError));
    assert.ok(logs.length > 20);
    assert.ok(
      [...secrets].some((s) => s.length > 20),
      'tokens were captured',
    );

    const haystacks: Array<[string, string]> = [];
    logs.forEach((l, i) => haystacks.push([`log ${i}`, JSON.stringify(l)]));
    errors.forEach((e, i) => {
      const err = e as PortalError;
      haystacks.push([`error ${i} message`, err.message]);
      haystacks.push([`error ${i} stack`, err.stack ?? '']);
      haystacks.push([`error ${i} inspect`, inspect(err, { depth: 5 })]);
      haystacks.push([`error ${i} json`, JSON.stringify(err)]);
    });
    for (const secret of secrets) {
      for (const [where, text] of haystacks) {
        assert.ok(!text.includes(secret), `${where} contains a secret: ${text}`);
        assert.ok(!text.includes(encodeURIComponent(secret)), `${where} contains an encoded secret: ${text}`);
      }
    }
    // The search for the password went out, masked in the log line.
    assert.ok(logs.some((l) => l.path.includes('name=***')));
    for (const c of clients) c.close();
  });
});

void test('a client dumped by util.inspect or JSON.stringify shows its origin, never a secret or token', async () => {
  const emu = await emulator();
  const { client } = makeClient(emu);
  try {
    await client.signIn({ kind: 'password', username: 'demo', password: 'demo' });
    const enrolled = await client.enrollApplication({ name: 'dump', platform: 'OTHER', deviceType: 'Other' });
    const token = await client.accessToken();
    for (const dump of [
      inspect(client, { depth: 10, showHidden: true }),
      JSON.stringify(client),
      JSON.stringify({ nested: { client } }),
    ]) {
      assert.ok(!dump.includes(enrolled.clientSecret), 'no client secret in the dump');
      assert.ok(!dump.includes(token), 'no token in the dump');
      assert.match(dump, /127\.0\.0\.1/);
    }
  } finally {
    client.close();
    await emu.stop();
  }
});
