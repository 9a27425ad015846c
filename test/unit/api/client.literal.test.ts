// A portal that keeps to the letter of the spec (the emulator's literal profile): the token endpoint takes GET
// only, error bodies are empty, text or HTML, expires_in is in minutes, and the single application and file record
// reads are missing. The client copes with each.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { PortalError, type RequestLogLine } from '../../../src/api';
import {
  accountId,
  emulator,
  enrolledClient,
  groupId,
  kind,
  makeClient,
  passwordClient,
  type Emulator,
  type TestClient,
} from './helpers';
import { testClock } from '../../support/clock';

const tokenLines = (logs: RequestLogLine[]) =>
  logs.filter((l) => l.path.startsWith('/oauth/token')).map((l) => `${l.method} ${l.status ?? l.errorKind ?? ''}`);

void describe('literal portal: tokens, errors and missing reads', () => {
  let emu: Emulator;
  let t: TestClient & { clientId: string; clientSecret: string };
  let acme: number;
  before(async () => {
    emu = await emulator({ profile: 'literal' });
    t = await enrolledClient(emu);
    acme = await accountId(t.client, 'acme');
  });
  after(async () => {
    t.client.close();
    await emu.stop();
  });

  void test('the token POST is refused (405): the client asks with GET, and keeps doing so', async () => {
    const c = makeClient(emu);
    await c.client.signIn({ kind: 'password', username: 'demo', password: 'demo' });
    assert.deepEqual(tokenLines(c.logs), ['POST 405', 'GET 200']);
    await c.client.enrollApplication({ name: 'literal get' });
    emu.expireAllTokens();
    assert.equal((await c.client.v3.userinfo()).name, 'demo');
    assert.deepEqual(
      tokenLines(c.logs),
      ['POST 405', 'GET 200', 'GET 200', 'GET 200'],
      'no POST after the first refusal',
    );
    c.client.close();
  });

  void test('passwords, codes and secrets in the GET query are redacted in every log line and error', async () => {
    const secret = t.clientSecret;
    const c = makeClient(emu);
    const errors: unknown[] = [];
    await c.client
      .signIn({ kind: 'password', username: 'demo-2fa', password: 'Wrong-Pa55word!' })
      .catch((e: unknown) => errors.push(e));
    await c.client
      .signIn({ kind: 'password', username: 'demo-2fa', password: 'demo', code: '654321' })
      .catch((e: unknown) => errors.push(e));
    await c.client
      .signIn({ kind: 'client', clientId: t.clientId, clientSecret: `${secret}-wrong` })
      .catch((e: unknown) => errors.push(e));
    await c.client.signIn({ kind: 'client', clientId: t.clientId, clientSecret: secret });
    assert.equal(errors.length, 3);
    assert.ok(c.logs.every((l) => l.method === 'GET' || l.status === 405));
    const text = JSON.stringify(c.logs) + errors.map((e) => inspect(e) + JSON.stringify(e)).join('\n');
    for (const s of ['Wrong-Pa55word!', 'Wrong-Pa55word%21', '654321', secret])
      assert.ok(!text.includes(s), `${s} leaked`);
    assert.ok(c.logs.some((l) => l.path.includes('password=***')));
    assert.ok(c.logs.some((l) => l.path.includes('client_secret=***')));
    c.client.close();
  });

  void test("error bodies that are empty, plain text or HTML still say what happened, in the portal's terms", async () => {
    // 404 is an HTML page carrying a command link.
    await assert.rejects(
      t.client.v3.members.get(acme, 'nobody.at.all'),
      kind('not-found', (e) => {
        assert.equal(e.status, 404);
        assert.match(e.message, /^Not found/);
        assert.ok(!/[<>]|command:/.test(e.message), e.message);
        assert.ok(e.message.length < 400);
      }),
    );
    // 403 is plain text.
    const m = await passwordClient(emu, {}, { username: 'member', password: 'demo' });
    await assert.rejects(
      m.client.v3.members.create(acme, { name: 'No Way', username: 'no.way', email: 'no.way@acme.example' }),
      kind('forbidden', (e) => {
        assert.ok(e.serverMessage && e.serverMessage.length > 0, "the portal's words are kept");
        assert.ok(e.message.includes(e.serverMessage ?? '\u0000'));
      }),
    );
    m.client.close();
    // 500 is empty, 503 HTML: retried, then reported by status.
    emu.setFaults([{ kind: 'status', status: 500, path: '/v3/userinfo' }]);
    await assert.rejects(
      t.client.v3.userinfo(),
      kind('server', (e) => assert.equal(e.message, 'The portal had a problem answering (HTTP 500). Try again later.')),
    );
    emu.setFaults([{ kind: 'error-body', status: 418, shape: 'html', path: '/v3/userinfo' }]);
    await assert.rejects(
      t.client.v3.userinfo(),
      (e: unknown) => e instanceof PortalError && !/[<>]|command:/.test(e.message) && /HTTP 418/.test(e.message),
    );
    emu.clearFaults();
    // 401 is empty: an expired token is still renewed.
    emu.expireAllTokens();
    assert.equal((await t.client.v3.userinfo()).name, 'demo');
  });

  void test('expires_in in minutes: no sign-out, no failed call, no storm of token requests', async () => {
    // Two-minute tokens: the literal portal says expires_in 2, which the client reads as 2 s and renews early. The
    // portal and the client share a clock the test moves, 100 ms a call: 30 calls span 3 s of token time however long
    // the machine takes over them.
    const clock = testClock();
    const short = await emulator({ profile: 'literal', tokenLifetimeSeconds: 120, clock: clock.now });
    const seconds = await emulator({ tokenLifetimeSeconds: 2, clock: clock.now });
    try {
      for (const portal of [short, seconds]) {
        const c = await enrolledClient(portal, { clock: clock.now });
        portal.resetStats();
        for (let i = 0; i < 30; i++) {
          assert.equal((await c.client.v3.userinfo()).name, 'demo');
          clock.advance(100);
        }
        assert.equal(c.client.isSignedOut, false);
        // The token read as 2 s is renewed once, 1.8 s in; the next is due at 3.6 s, after the last call. A storm is a
        // token request per call, thirty.
        assert.equal(portal.stats().tokenRequests, 1, `token requests over 3 s of calls (${portal.profile})`);
        assert.equal(c.logs.filter((l) => l.status === 401).length, 0);
        c.client.close();
      }
    } finally {
      await short.stop();
      await seconds.stop();
    }
  });

  void test('the missing single application and file record reads are clear not-found errors', async () => {
    await assert.rejects(
      t.client.v3.applications.get(t.clientId),
      kind('not-found', (e) => assert.equal(e.endpoint, `GET /v3/applications/${t.clientId}`)),
    );
    const engineering = await groupId(t.client, acme, 'engineering');
    const first = (await t.client.v2.files.page(acme, engineering, { size: 5 })).items[0];
    assert.ok(first);
    await assert.rejects(t.client.v2.files.get(acme, engineering, first.id), kind('not-found'));
  });
});
