// The Problems panel's view of a members file: each problem at its line and column, with a code and arguments.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { diagnose } from '../../../../../../../src/features/members/plan/core/file/diagnose';
import { parseMembersFile } from '../../../../../../../src/features/members/plan/core/file/membersFile';
import type { PortalMember, Problem } from '../../../../../../../src/features/members/plan/core/model';

function member(username: string, twoFactor = false): PortalMember {
  return {
    username,
    name: username,
    email: `${username}@example.com`,
    jobTitle: null,
    enabled: true,
    locked: false,
    pendingUnlock: false,
    accountPermission: 1,
    tags: [],
    twoFactor,
    lastModified: 1,
    created: 1,
    lastActive: null,
    memberOfMultipleAccounts: false,
  };
}

const at = (p: Problem) => [p.code, p.line, p.column, p.endColumn];

void describe('members file diagnostics', () => {
  void test('each problem at its line and column', () => {
    const text = [
      'username,email,group:engineering,group:nowhere,accountPermission,enabled,Shoe size',
      'ann,ann@example.com,Admin,,Member,true,',
      'bob,not-an-email,Basic,,Boss,maybe,',
      'ANN,ann2@example.com,,,,,',
      'newbie,new@example.com,,,,,',
    ].join('\n');
    const members = new Map([
      ['ann', member('ann')],
      ['bob', member('bob')],
    ]);
    const problems = diagnose(parseMembersFile(text), {
      members,
      groups: [{ id: 101, name: 'engineering', friendlyName: 'Engineering' }],
    });
    assert.deepEqual(problems.map(at), [
      ['no-lastmodified-column', 0, 0, 0],
      ['unknown-group', 0, 33, 46],
      ['unknown-column', 0, 73, 82],
      ['duplicate-username', 1, 0, 3],
      ['bad-group-permission', 1, 20, 25],
      ['bad-email', 2, 4, 16],
      ['bad-account-permission', 2, 24, 28],
      ['bad-boolean', 2, 29, 34],
      ['duplicate-username', 3, 0, 3],
      ['missing-for-create', 4, 0, 6],
    ]);
    // Rows are named by the editor's line numbers: each of the two rows names the other's.
    assert.deepEqual(
      problems.filter((p) => p.code === 'duplicate-username').map((p) => p.args),
      [
        ['ann', 4],
        ['ANN', 2],
      ],
    );
    assert.deepEqual(problems.find((p) => p.code === 'missing-for-create')?.args, ['newbie', 'name']);
    assert.equal(problems.find((p) => p.code === 'bad-email')?.row, 2);
    assert.ok(problems.slice(1).every((p) => p.severity === 'error'));
    assert.equal(problems[0]?.severity, 'info');
  });

  void test('no username column; read-only columns; values the portal cannot hold; two-factor only off', () => {
    assert.deepEqual(diagnose(parseMembersFile('name,email\nA,a@b.co\n')).map(at), [['no-username-column', 0, 0, 0]]);
    const long = 'x'.repeat(201);
    const text = `username,name,created,tags,twoFactor,lastModified\nann,${long},2020-01-01,${'t'.repeat(51)},true,\n`;
    const problems = diagnose(parseMembersFile(text), { members: new Map([['ann', member('ann')]]) });
    assert.deepEqual(
      problems.map((p) => [p.code, p.severity, ...p.args.map(String)]),
      [
        ['read-only-column', 'info', 'created'],
        ['too-long', 'error', 'name', '200'],
        ['bad-tag', 'error', 't'.repeat(51)],
        ['cannot-enable-two-factor', 'error'],
      ],
    );
  });

  void test("a new member's activation date must be a date in the future", () => {
    const text =
      'username,name,email,activationDate\nnew.one,New,new@example.com,2020-01-01\nnew.two,Two,two@example.com,soon\nnew.three,Three,t@example.com,2999-05-01T09:00:00Z\n';
    const problems = diagnose(parseMembersFile(text), { members: new Map(), now: Date.parse('2026-01-01') });
    assert.deepEqual(
      problems.filter((p) => p.code === 'bad-date').map((p) => p.row),
      [1, 2],
    );
  });

  void test('a value from the portal is never an error: a warning before the portal is read, nothing once it matches', () => {
    const text = [
      'username,name,email,lastModified',
      "ann,Ann,'@SUM(1),2026-01-01T09:00:00Z",
      'bob,Bob,not-an-address,',
    ].join('\n');
    const file = parseMembersFile(text);
    const severities = (problems: readonly Problem[]) =>
      problems.filter((p) => p.code === 'bad-email').map((p) => [p.row, p.severity, ...p.args]);
    // Before any plan: ann's row carries the export's lastModified, so her e-mail is the portal's; bob's is typed.
    assert.deepEqual(severities(diagnose(file)), [
      [1, 'warning', '@SUM(1)'],
      [2, 'error', 'not-an-address'],
    ]);
    // Once the portal is read: the portal holds ann's e-mail, so nothing; an edit of it is the user's, an error.
    const ann = { ...member('ann'), email: '@SUM(1)' };
    const members = new Map([
      ['ann', ann],
      ['bob', member('bob')],
    ]);
    assert.deepEqual(severities(diagnose(file, { members, readAt: Date.parse('2026-02-01') })), [
      [2, 'error', 'not-an-address'],
    ]);
    const edited = parseMembersFile(text.replace("'@SUM(1)", '@SUM(2)'));
    assert.deepEqual(severities(diagnose(edited, { members, readAt: Date.parse('2026-02-01') })), [
      [1, 'error', '@SUM(2)'],
      [2, 'error', 'not-an-address'],
    ]);
  });
});
