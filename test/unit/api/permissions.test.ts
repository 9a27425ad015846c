import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AccountPermission, GroupPermission, ContentPermission } from '../../../src/api';

void test('permission masks', () => {
  assert.equal(AccountPermission.SuperAdministrator, 16);
  assert.equal(GroupPermission.Standard, 4);
  assert.equal(ContentPermission.EditDelete, 8);
});
