// A page longer than asked for is refused (paging.ts), whether the portal's envelope or its plain array says so.
import { beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ERROR_CODES } from '../../../src/api';
import { groupId, kind, enrolledSuite, hostileSuite } from './helpers';

void describe('pages longer than asked for', () => {
  const s = enrolledSuite(async ({ t, acme }) => ({ engineering: await groupId(t.client, acme, 'engineering') }));
  beforeEach(() => s.emu.clearFaults());

  void test('an envelope page longer than asked for is refused, saying what the portal sent', async () => {
    s.emu.setFaults([{ kind: 'oversized-page', factor: 10 }]);
    await assert.rejects(
      s.t.client.v3.members.page(s.acme, { size: 5 }),
      kind('invalid-response', (e) => {
        assert.equal(e.code, ERROR_CODES.pageTooLong);
        assert.equal(e.endpoint, `GET /v3/accounts/${s.acme}/members`);
        assert.match(e.message, /sent 50 rows for a page of 5/);
      }),
    );
    await assert.rejects(
      s.t.client.v2.members.page(s.acme, { size: 3 }),
      kind('invalid-response', (e) => assert.equal(e.code, ERROR_CODES.pageTooLong)),
    );
    await assert.rejects(
      s.t.client.v2.files.page(s.acme, s.engineering, { size: 2 }),
      kind('invalid-response', (e) => assert.equal(e.code, ERROR_CODES.pageTooLong)),
    );
    // A plain array that long is the whole list: no next page.
    const groups = await s.t.client.v2.groups.page(s.acme, { size: 1 });
    assert.equal(groups.hasNext, false);
  });
});

void describe('the hostile seed', () => {
  const s = hostileSuite();

  void test('a member page ten times longer than asked is refused; the error carries no markup from the portal', async () => {
    // The hostile seed's second organisation answers ten times the rows asked for.
    const account = (await s.t.client.v3.accounts.list())[1]?.id ?? 2;
    await assert.rejects(
      s.t.client.v3.members.page(account, { size: 20 }),
      kind('invalid-response', (e) => {
        assert.equal(e.code, ERROR_CODES.pageTooLong);
        assert.match(e.message, /sent 200 rows for a page of 20/);
      }),
    );
  });
});
