// A page longer than asked for is refused (paging.ts), whether the portal's envelope or its plain array says so.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ERROR_CODES } from '../../../src/api';
import { groupId, kind, startEnrolled, startHostile, stopEnrolled, type Emulator, type TestClient } from './helpers';

void describe('pages longer than asked for', () => {
  let emu: Emulator;
  let t: TestClient;
  let acme: number;
  let engineering: number;
  before(async () => {
    ({ emu, t, acme } = await startEnrolled());
    engineering = await groupId(t.client, acme, 'engineering');
  });
  after(() => stopEnrolled(emu, t));
  beforeEach(() => emu.clearFaults());

  void test('an envelope page longer than asked for is refused, saying what the portal sent', async () => {
    emu.setFaults([{ kind: 'oversized-page', factor: 10 }]);
    await assert.rejects(
      t.client.v3.members.page(acme, { size: 5 }),
      kind('invalid-response', (e) => {
        assert.equal(e.code, ERROR_CODES.pageTooLong);
        assert.equal(e.endpoint, `GET /v3/accounts/${acme}/members`);
        assert.match(e.message, /sent 50 rows for a page of 5/);
      }),
    );
    await assert.rejects(
      t.client.v2.members.page(acme, { size: 3 }),
      kind('invalid-response', (e) => assert.equal(e.code, ERROR_CODES.pageTooLong)),
    );
    await assert.rejects(
      t.client.v2.files.page(acme, engineering, { size: 2 }),
      kind('invalid-response', (e) => assert.equal(e.code, ERROR_CODES.pageTooLong)),
    );
    // A plain array that long is the whole list: no next page.
    const groups = await t.client.v2.groups.page(acme, { size: 1 });
    assert.equal(groups.hasNext, false);
  });
});

void describe('the hostile seed', () => {
  let emu: Emulator;
  let t: TestClient;
  before(async () => {
    ({ emu, t } = await startHostile());
  });
  after(() => stopEnrolled(emu, t));

  void test('a member page ten times longer than asked is refused; the error carries no markup from the portal', async () => {
    // The hostile seed's second organisation answers ten times the rows asked for.
    const account = (await t.client.v3.accounts.list())[1]?.id ?? 2;
    await assert.rejects(
      t.client.v3.members.page(account, { size: 20 }),
      kind('invalid-response', (e) => {
        assert.equal(e.code, ERROR_CODES.pageTooLong);
        assert.match(e.message, /sent 200 rows for a page of 20/);
      }),
    );
  });
});
