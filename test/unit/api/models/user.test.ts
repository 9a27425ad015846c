import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PortalError, normaliseDateFormat, parseUser, parseUserInfo } from '../../../../src/api';

const invalid = (e: unknown) => e instanceof PortalError && e.kind === 'invalid-response';

void test('dateFormat: string in any spelling, boolean and null', () => {
  assert.equal(normaliseDateFormat('YMD'), 'YMD');
  assert.equal(normaliseDateFormat('d-m-y'), 'DMY');
  assert.equal(normaliseDateFormat('mm/dd/yyyy'), 'MDY');
  assert.equal(normaliseDateFormat(true), null);
  assert.equal(normaliseDateFormat(false), null);
  assert.equal(normaliseDateFormat(null), null);
  assert.equal(normaliseDateFormat('whatever'), null);
});

void test('User tolerates nulls and unknown fields; only id is required', () => {
  const u = parseUser({
    id: 5,
    username: 'a',
    name: null,
    jobTitle: null,
    dateFormat: true,
    lastActive: null,
    extra: { x: 1 },
  });
  assert.equal(u.id, 5);
  assert.equal(u.name, '');
  assert.equal(u.jobTitle, null);
  assert.equal(u.dateFormat, null);
  assert.equal(u.twentyFourHourTimeFormat, null);
  assert.ok(!('extra' in u));
  assert.throws(() => parseUser({ username: 'a' }), invalid);
  assert.throws(() => parseUser('nope'), invalid);
});

void test('Userinfo reads the user from the service-named field', () => {
  const json = {
    name: 'demo',
    portal: { id: 1, username: 'demo', dateFormat: 'DMY' },
    authorities: ['ROLE_USER'],
    accounts: [
      {
        account: { id: 2, name: 'acme' },
        subscription: { code: 'p', trialExpires: null, paused: false },
        permission: 16,
        components: null,
        metadata: { a: 'b', n: 1 },
      },
    ],
  };
  const info = parseUserInfo(json, 'portal');
  assert.equal(info.user?.dateFormat, 'DMY');
  assert.equal(info.accounts[0]?.components, null);
  assert.deepEqual({ ...info.accounts[0]?.metadata }, { a: 'b', n: '1' });
  assert.deepEqual(info.accounts[0]?.features, []);
  assert.equal(parseUserInfo(json, 'other').user, null);
  assert.equal(parseUserInfo({ ...json, accounts: undefined }, 'portal').accounts.length, 0);
});
