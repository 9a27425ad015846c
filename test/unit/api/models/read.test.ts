// Server names used as keys (a member's groups): read into maps where no name is special.
import { test } from 'node:test';
import assert from 'node:assert/strict';

void test('maps keyed by server names: "constructor", "__proto__" and "toString" are ordinary keys', async () => {
  const { parseMemberV2, ownValue } = await import('../../../../src/api');
  const member = parseMemberV2(
    JSON.parse(
      '{"user":{"id":1,"username":"a"},"accountPermission":1,"groups":{"constructor":4,"__proto__":16,"..":1}}',
    ),
  );
  assert.equal(ownValue(member.groups, 'constructor'), 4);
  assert.equal(ownValue(member.groups, '__proto__'), 16);
  assert.equal(ownValue(member.groups, '..'), 1);
  assert.equal(ownValue(member.groups, 'toString'), undefined, 'not Object.prototype.toString');
  assert.equal(ownValue(member.groups, 'hasOwnProperty'), undefined);
  assert.equal(Object.getPrototypeOf(member.groups), null);
});
