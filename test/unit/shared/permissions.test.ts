// Permission masks in words: each documented level by its name, nothing as a bare number, and a mask that is no
// documented level named after the highest level it holds, with its number.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AccountPermission, ContentPermission, GroupPermission } from '../../../src/api/permissions';
import { accountPermissionWords, contentPermissionWords, groupPermissionWords } from '../../../src/shared/permissions';

void test('each documented level has its own words', () => {
  assert.equal(accountPermissionWords(AccountPermission.SuperAdministrator), 'Super administrator');
  assert.equal(accountPermissionWords(AccountPermission.Member), 'Member');
  assert.equal(groupPermissionWords(GroupPermission.Basic), 'Basic');
  assert.equal(groupPermissionWords(GroupPermission.Administrator), 'Administrator');
  assert.equal(contentPermissionWords(ContentPermission.ViewDownloadShare), 'View, download and share');
  assert.equal(contentPermissionWords(ContentPermission.EditDelete), 'View, edit and delete');
});

void test('no mask reads None; an undocumented mask is named after its highest level, with its number', () => {
  assert.equal(contentPermissionWords(null), 'None');
  assert.equal(accountPermissionWords(undefined), 'None');
  assert.equal(accountPermissionWords(20), 'Super administrator (20)');
  assert.equal(groupPermissionWords(5), 'Standard (5)');
  assert.equal(contentPermissionWords(0), 'Unknown (0)');
});
