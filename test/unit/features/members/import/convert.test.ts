// HR's sheet through a mapping into a members file: the file the plan reads, with no problem for the
// organisation's groups; usernames made, normalised and numbered where they clash.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  convertSheet,
  emptyMembersFile,
  existingMemberOf,
  makeUsername,
} from '../../../../../src/features/members/import/convert';
import { makePlan } from '../../../../../src/features/members/plan/core/planner';
import { groupLevelsOf, readPortalState } from '../../../../../src/features/members/plan/core/portalState';
import { withPortal } from '../plan/core/helpers';
import type { ImportMapping } from '../../../../../src/features/members/import/mapping';
import { diagnose } from '../../../../../src/features/members/plan/core/file/diagnose';
import {
  looksLikeMembersFile,
  parseMembersFile,
  valueOf,
} from '../../../../../src/features/members/plan/core/file/membersFile';
import { HR_HEADERS, SIX_STARTERS } from './hrSheet';

const sheet = { headers: HR_HEADERS, rows: SIX_STARTERS, truncated: false };
const GROUPS = [
  { id: 1, name: 'engineering', friendlyName: 'Engineering' },
  { id: 2, name: 'marketing', friendlyName: 'Marketing' },
  { id: 3, name: 'handbook', friendlyName: 'Employee Handbook' },
];
const mapping: ImportMapping = {
  portalId: 'demo-portal',
  accountId: 1,
  accountLabel: 'Acme',
  columns: {
    'First name': 'firstName',
    'Last name': 'lastName',
    Email: 'email',
    Department: 'department',
    'Start date': 'activationDate',
  },
  dateFormat: 'dmy',
  usernames: 'first.last',
  departments: {
    engineering: { group: 'engineering', level: 'Standard' },
    marketing: { group: 'marketing', level: 'Basic' },
    'employee handbook': { group: 'handbook', level: 'Standard' },
  },
};

void describe('convertSheet', () => {
  void test('six starters: a members file with their names, e-mails, dates and groups, and no problem', () => {
    const out = convertSheet(sheet, mapping, { portal: new Map(), today: '2026-11-27' });
    const file = parseMembersFile(out.text);
    assert.deepEqual(
      file.header.map((h) => h.key),
      ['username', 'name', 'email', 'activationDate', 'group:engineering', 'group:marketing', 'group:handbook'],
    );
    assert.deepEqual(
      file.rows.map((r) => valueOf(file, r, 'username')),
      ['ana.lopez', 'ben.okafor', 'chloe.martin', 'dev.patel', 'eva.novak', 'finn.obrien'],
    );
    const ana = file.rows[0]!;
    assert.equal(valueOf(file, ana, 'name'), 'Ana López');
    assert.equal(valueOf(file, ana, 'activationDate'), '2099-01-05');
    assert.equal(valueOf(file, ana, 'group:engineering'), 'Standard');
    assert.equal(valueOf(file, file.rows[3]!, 'group:handbook'), 'Standard');
    assert.deepEqual(
      diagnose(file, { groups: GROUPS, now: Date.UTC(2026, 10, 27) }).filter((p) => p.severity !== 'info'),
      [],
    );
    assert.deepEqual(out.clashes, []);
  });

  void test('a username someone else holds on the portal, or one the sheet gives twice, is numbered; the same person is not', () => {
    const rows = [...SIX_STARTERS, ['Ana', 'Lopez', 'other.ana@acme.example', 'Engineering', '']] as const;
    const portal = new Map([
      ['ben.okafor', 'someone.else@acme.example'],
      ['eva.novak', 'EVA.NOVAK@acme.example'],
    ]);
    const out = convertSheet({ ...sheet, rows }, mapping, { portal, today: '2026-11-27' });
    assert.deepEqual(out.clashes, [
      { row: 2, wanted: 'ben.okafor', given: 'ben.okafor2', with: 'portal' },
      { row: 7, wanted: 'ana.lopez', given: 'ana.lopez2', with: 'sheet' },
    ]);
    assert.deepEqual(out.existing, ['eva.novak']);
  });

  void test('a start date already past is left empty (activation now); one that is no date stays for the Problems panel', () => {
    const rows = [
      ['Ana', 'López', 'a@acme.example', 'Engineering', '05/01/2020'],
      ['Ben', 'Okafor', 'b@acme.example', 'Engineering', 'soon'],
    ] as const;
    const out = convertSheet({ ...sheet, rows }, mapping, { portal: new Map(), today: '2026-11-27' });
    const file = parseMembersFile(out.text);
    assert.equal(out.pastDates, 1);
    assert.equal(valueOf(file, file.rows[0]!, 'activationDate'), '');
    assert.equal(valueOf(file, file.rows[1]!, 'activationDate'), 'soon');
  });

  void test('sheet text that a spreadsheet would run as a formula is written inert and reads back as it was', () => {
    const rows = [['=HYPERLINK("x")', 'Doe', 'x@acme.example', 'Engineering', '']] as const;
    const out = convertSheet(
      { ...sheet, rows },
      { ...mapping, usernames: 'email' },
      { portal: new Map(), today: '2026-11-27' },
    );
    assert.match(out.text, /'=HYPERLINK/);
    const file = parseMembersFile(out.text);
    assert.equal(valueOf(file, file.rows[0]!, 'name'), '=HYPERLINK("x") Doe');
    assert.equal(valueOf(file, file.rows[0]!, 'username'), 'x');
  });
});

void describe('usernames', () => {
  void test('first.last and the e-mail’s local part, normalised to the portal’s rule', () => {
    assert.equal(
      makeUsername('first.last', { first: 'Chloé', last: "O'Brien Smith", email: '' }),
      'chloe.obrien.smith',
    );
    assert.equal(makeUsername('email', { first: '', last: '', email: 'Ana+HR@acme.example' }), 'anahr');
    assert.equal(makeUsername('first.last', { first: '', last: '', email: '' }), '');
  });
});

void describe('emptyMembersFile', () => {
  void test('the header of an organisation’s members file, one column per group, recognised as a members file', () => {
    const text = emptyMembersFile(['engineering', 'handbook']);
    assert.equal(text, 'username,name,email,jobTitle,activationDate,group:engineering,group:handbook\r\n');
    assert.ok(looksLikeMembersFile(text));
    assert.deepEqual(
      diagnose(parseMembersFile(text), {
        groups: [
          { id: 1, name: 'engineering', friendlyName: 'E' },
          { id: 2, name: 'handbook', friendlyName: 'H' },
        ],
      }).filter((p) => p.severity !== 'info'),
      [],
    );
  });
});

void describe('an import for people already members', () => {
  void test('keeps every group the sheet does not decide and never lowers one: the plan holds no removal', async () => {
    await withPortal(async (p) => {
      // Mia is in Engineering (Standard), Marketing (Basic) and Social Club (Administrator); Yara in Engineering
      // (Basic). The sheet puts Mia in Social Club and Yara in Engineering, each at Standard, beside a starter.
      const rows = [
        ['Mia', 'Member', 'member@acme.example', 'Social Club', ''],
        ['Yara', 'Haddad', 'yara.haddad@acme.example', 'Engineering', ''],
        ['Zoe', 'Starter', 'zoe.starter@acme.example', 'Marketing', '05/01/2099'],
      ] as const;
      const departments = {
        engineering: { group: 'engineering', level: 'Standard' },
        marketing: { group: 'marketing', level: 'Standard' },
        'social club': { group: 'social', level: 'Standard' },
      } as const;
      const before = await readPortalState(p.client, p.acme, undefined);
      const emails = new Map([...before.members].map(([k, m]) => [k, m.email]));
      const options = { portal: emails, today: '2026-11-27' };
      const imported = { ...mapping, departments };
      const existing = new Map<string, ReturnType<typeof existingMemberOf>>();
      for (const username of ['member', 'yara.haddad']) {
        const m = before.members.get(username)!;
        const v2 = await p.client.v2.members.get(p.acme, username);
        existing.set(username, existingMemberOf(m, groupLevelsOf(v2.groups, before.groups), before.groups));
      }
      // The sheet's first.last makes mia.member, not her username: the import finds her by the username it makes,
      // so the row is written with her portal username here, as HR's sheet with a username column would.
      const withUsernames = {
        headers: [...HR_HEADERS, 'Username'],
        rows: rows.map((r, i) => [...r, ['member', 'yara.haddad', 'zoe.starter'][i]!]),
        truncated: false,
      };
      const columns = { ...imported.columns, Username: 'username' as const };
      const out = convertSheet(withUsernames, { ...imported, columns }, { ...options, existing });
      const file = parseMembersFile(out.text);
      const plan = makePlan(file, await readPortalState(p.client, p.acme, file), { absent: 'leave' });
      const lowered = plan.groupChanges.filter((c) => c.after < c.before);
      assert.deepEqual(lowered, []);
      assert.deepEqual(
        plan.groupChanges.map((c) => [c.username, c.groupName, c.before, c.after]),
        [['yara.haddad', 'engineering', 1, 4]],
      );
      assert.deepEqual(plan.absent, []);
      assert.deepEqual(
        plan.newMembers.map((c) => c.username),
        ['zoe.starter'],
      );
      assert.deepEqual(out.existing, ['member', 'yara.haddad']);
      assert.deepEqual(out.existingChanges, { changed: 1, addedToGroup: 0, raisedInGroup: 1, newDetails: 0 });
      const mia = file.rows[0]!;
      assert.deepEqual(
        (['group:engineering', 'group:marketing', 'group:social'] as const).map((k) => valueOf(file, mia, k)),
        ['keep', 'keep', 'keep'],
      );
      assert.deepEqual(
        diagnose(file, { groups: before.groups, now: Date.UTC(2026, 10, 27) }).filter((x) => x.severity === 'error'),
        [],
      );
    });
  });
});
