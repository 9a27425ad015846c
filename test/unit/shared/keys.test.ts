import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  accountKey,
  applicationKey,
  emptyKey,
  fileKey,
  formKeys,
  groupKey,
  isWithin,
  memberKey,
  memberListKey,
  memberListsKey,
  moreKey,
  portalKey,
  rangeKey,
} from '../../../src/shared/keys';

const account = { portalId: 'http-127.0.0.1-8080-portal', accountId: 1 };

void test("a demo portal id encodes to itself, so row ids (and VS Code's expansion state) keep their shape", () => {
  assert.equal(portalKey('explorer', account.portalId), 'explorer/http-127.0.0.1-8080-portal');
  assert.equal(accountKey(account), 'explorer/http-127.0.0.1-8080-portal/a:1');
  const group = groupKey({ account, groupId: 101 });
  assert.equal(group, 'explorer/http-127.0.0.1-8080-portal/a:1/g:101');
  assert.equal(fileKey(fileKey(group, 5), 6), `${group}/f:5/f:6`);
  assert.equal(applicationKey(account.portalId, 'demo-1'), 'applications/http-127.0.0.1-8080-portal/app:demo-1');
});

void test('server text cannot add a level or climb out of one', () => {
  const list = memberListKey(account, {});
  const sneaky = memberKey(list, 'a/m:x');
  assert.equal(sneaky.split('/').length, list.split('/').length + 1, 'one level, whatever the username holds');
  assert.ok(!sneaky.endsWith('/m:x'));
  const dots = applicationKey('p', '../..');
  assert.equal(dots, 'applications/p/app:..%2F..');
  assert.equal(portalKey('explorer', 'a/b'), 'explorer/a%2Fb');
  assert.ok(
    !isWithin(portalKey('explorer', 'a/b'), portalKey('explorer', 'a')),
    'portal "a/b" is not under portal "a"',
  );
});

void test('isWithin: the key itself and what lies below, never a sibling that shares a prefix', () => {
  const one = accountKey(account);
  const ten = accountKey({ ...account, accountId: 10 });
  assert.ok(isWithin(one, one));
  assert.ok(isWithin(groupKey({ account, groupId: 2 }), one));
  assert.ok(!isWithin(ten, one), 'a:10 is not below a:1');
  const lists = memberListsKey(account);
  const slash = memberKey(memberListKey(account, { search: 'x' }), 'ann/bob');
  assert.ok(isWithin(slash, lists), 'a member whose username holds "/" is still found under its account');
  assert.ok(!isWithin(slash, memberListsKey({ ...account, accountId: 10 })));
});

void test('a member list key does not depend on the order its tags were chosen in', () => {
  assert.equal(memberListKey(account, { tags: ['b', 'a'] }), memberListKey(account, { tags: ['a', 'b'] }));
  assert.notEqual(
    memberListKey(account, { search: 'ann' }),
    memberListKey(account, { search: 'ann', startsWith: true }),
  );
  const list = memberListKey(account, { search: 'a/b' });
  assert.equal(list.split('/').length, memberListsKey(account).split('/').length + 1);
});

void test('the rows a list adds are named after it', () => {
  const list = accountKey(account);
  assert.equal(moreKey(list), `${list}/#more`);
  assert.equal(emptyKey(list), `${list}/#empty`);
  assert.equal(rangeKey(list, 100, 100), `${list}/#range:100:100`);
});

void test('form keys: one per thing edited, and every "new" form its own', () => {
  const member = { account, username: 'ann:x' };
  assert.equal(formKeys.assignments(member), 'assignments:http-127.0.0.1-8080-portal:1:ann%3Ax');
  assert.notEqual(formKeys.member(member), formKeys.assignments(member));
  assert.notEqual(formKeys.newMember(account, 1), formKeys.newMember(account, 2));
  assert.equal(formKeys.overview(account), 'overview:http-127.0.0.1-8080-portal:1');
  assert.notEqual(formKeys.group({ account, groupId: 5 }), formKeys.newGroup(account));
  assert.equal(formKeys.application('p', 'c'), 'application:p:c');
  assert.notEqual(formKeys.newApplication('p', 1), formKeys.application('p', 'new'));
});
