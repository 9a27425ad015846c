import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PortalError, normaliseActivation, parseMember, parseMemberTagSummary } from '../../../../src/api';

const invalid = (e: unknown) => e instanceof PortalError && e.kind === 'invalid-response';

void test('activationType: string or number', () => {
  assert.deepEqual(normaliseActivation('now'), { mode: 'now', date: null });
  assert.deepEqual(normaliseActivation('CUSTOM', 1700000000000), { mode: 'custom', date: 1700000000000 });
  assert.deepEqual(normaliseActivation(1700000000000), { mode: 'custom', date: 1700000000000 });
  assert.deepEqual(normaliseActivation(null), { mode: null, date: null });
  assert.deepEqual(normaliseActivation('later?'), { mode: null, date: null });
});

void test('Member v3 and tag summary', () => {
  const m = parseMember({
    user: { id: 3, username: 'x' },
    permission: null,
    activationType: 1700000000000,
    tags: null,
    notAssigned: [1, 'g'],
  });
  assert.equal(m.permission, null);
  assert.deepEqual(m.activation, { mode: 'custom', date: 1700000000000 });
  assert.deepEqual(m.tags, []);
  assert.deepEqual(m.notAssigned, [1, 'g']);
  assert.throws(() => parseMember({ permission: 1 }), invalid);
  assert.deepEqual(parseMemberTagSummary({ name: 'a', members: 3 }), { name: 'a', members: 3 });
});
