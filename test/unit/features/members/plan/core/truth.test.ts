// The plan is the whole truth, whoever wrote the file: every data row is planned, already matches, or is listed
// as skipped with its problems; elevations are named; a forged baseline is a problem; a group change on the
// portal since the export is a conflict whether or not lastModified moved; and an untouched export plans nothing
// on portal data less tidy than the seed's. Against the real emulator.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { diagnose } from '../../../../../../src/features/members/plan/core/file/diagnose';
import { groupDigest } from '../../../../../../src/node/groupDigest';
import {
  looksLikeMembersFile,
  parseMembersFile,
} from '../../../../../../src/features/members/plan/core/file/membersFile';
import { planElevations } from '../../../../../../src/features/members/plan/core/elevation';
import { allChanges, type FilePlan } from '../../../../../../src/features/members/plan/core/model';
import { fileDigest, makePlan } from '../../../../../../src/features/members/plan/core/planner';
import { readPortalState } from '../../../../../../src/features/members/plan/core/portalState';
import { groupIdOf } from '../../../helpers';
import { exportText, Table, withPortal, type Portal } from './helpers';
import { acmeUsers, withSeededPortal } from './seeded';

async function planOf(p: Portal, text: string): Promise<FilePlan> {
  const file = parseMembersFile(text);
  const state = await readPortalState(p.client, p.acme, file);
  return makePlan(file, state, { fileDigest: fileDigest(text) });
}

const ids = (plan: FilePlan) =>
  allChanges(plan)
    .map((c) => c.id)
    .sort();

/** Rows the plan accounts for: rows with a change, rows that already match, rows skipped. */
function accounted(plan: FilePlan): number {
  const changed = new Set(allChanges(plan).flatMap((c) => (c.row === undefined ? [] : [c.row])));
  return changed.size + (plan.source?.unchanged ?? 0) + (plan.skipped?.length ?? 0);
}

void describe('the plan accounts for every row', () => {
  void test('rows with errors are listed as skipped, each with its problem and line', async () => {
    await withPortal(async (p) => {
      const table = new Table(await exportText(p));
      const starter = (username: string, email: string, permission = '') =>
        table.add({ Username: username, Name: username, 'E-mail': email, 'Account permission': permission });
      starter('ok.one', 'ok.one@acme.example');
      starter('bad.email', 'not-an-address');
      starter('ok.two', 'ok.two@acme.example');
      starter('bad.permission', 'bad.permission@acme.example', 'Boss');
      starter('ok.three', 'ok.three@acme.example');
      table.add({ Username: '', Name: 'Nobody', 'E-mail': 'nobody@acme.example' });
      const text = table.text();
      const plan = await planOf(p, text);
      assert.deepEqual(
        plan.newMembers.map((c) => c.username),
        ['ok.one', 'ok.two', 'ok.three'],
      );
      const rows = table.rows.length - 1;
      assert.deepEqual(
        plan.skipped?.map((s) => [s.username, s.line, s.problems.map((x) => x.code)]),
        [
          ['bad.email', rows - 4, ['bad-email']],
          ['bad.permission', rows - 2, ['bad-account-permission']],
          ['', rows - 0, ['empty-username']],
        ],
      );
      assert.equal(plan.source?.rows, rows);
      assert.equal(accounted(plan), rows);
      assert.equal(plan.source?.fileDigest, fileDigest(text));
      assert.ok((plan.source?.readAt ?? 0) > 0);
    });
  });
});

void describe('elevations', () => {
  void test('a new Super administrator and a group Administrator are named, in the plan and as warnings', async () => {
    await withPortal(async (p) => {
      const table = new Table(await exportText(p));
      table.add({
        Username: 'sam.starter',
        Name: 'Sam',
        'E-mail': 'sam@attacker.example',
        'Account permission': 'Super administrator',
        'group:engineering': 'Administrator',
      });
      const text = table.text();
      const plan = await planOf(p, text);
      const engineering = plan.groups.find((g) => g.name === 'engineering');
      assert.deepEqual(
        planElevations(plan, allChanges(plan)).map((e) => [e.change.id, e.elevations]),
        [
          [
            'sam.starter#create',
            [{ kind: 'super-administrator' }, { kind: 'group-administrator', group: engineering?.friendlyName }],
          ],
        ],
      );
      // As typed, before the portal is read: the new row's grants are warnings on its cells.
      const warnings = diagnose(parseMembersFile(text)).filter((x) => x.code === 'elevation');
      assert.deepEqual(
        warnings.map((w) => [w.severity, ...w.args]),
        [
          ['warning', 'super-administrator', ''],
          ['warning', 'group-administrator', 'engineering'],
        ],
      );
    });
  });
});

void describe('conflicts a file cannot hide', () => {
  void test('a lastModified later than the portal read is a problem, not a baseline', async () => {
    await withPortal(async (p) => {
      const table = new Table(await exportText(p));
      await p.client.v3.members.update(p.acme, 'chloe.kowalski', { tags: ['changed-elsewhere'] });
      table.set('chloe.kowalski', 'Name', 'Chloe K.');
      table.set('chloe.kowalski', 'lastModified', '2099-01-01T00:00:00.000Z');
      // A group edit behind a digest made to match it, with a date in the future.
      const was = table.get('bruno.dubois', 'group:engineering');
      table.set('bruno.dubois', 'group:engineering', was === 'Administrator' ? 'Basic' : 'Administrator');
      const groupColumns = table.header.filter((h) => h.startsWith('group:'));
      const levels = new Map(
        groupColumns.map((h) => {
          const word = table.get('bruno.dubois', h);
          return [
            h.slice(6),
            ({ Basic: 1, Standard: 4, Administrator: 16 } as Record<string, 1 | 4 | 16>)[word] ?? 0,
          ] as const;
        }),
      );
      table.set('bruno.dubois', 'groupDigest', groupDigest(levels));
      table.set('bruno.dubois', 'lastModified', '2099-01-01T00:00:00.000Z');
      const plan = await planOf(p, table.text());
      assert.deepEqual(ids(plan), []);
      assert.deepEqual(
        plan.skipped?.map((s) => [s.username, s.problems.map((x) => x.code)]),
        [
          ['bruno.dubois', ['future-last-modified']],
          ['chloe.kowalski', ['future-last-modified']],
        ].sort(),
      );
    });
  });

  for (const keep of [false, true])
    void test(`a group change since the export is a conflict (${keep ? 'lastModified left alone' : 'lastModified moved'})`, async () => {
      await withPortal(
        async (p) => {
          const engineering = await groupIdOf(p.client, p.acme, 'engineering');
          const marketing = await groupIdOf(p.client, p.acme, 'marketing');
          const table = new Table(await exportText(p));
          const before = (await p.client.v3.members.page(p.acme, { page: 1, size: 100 })).items.find(
            (m) => m.user.username === 'dmitri.brown',
          );
          // Another administrator changes the member's engineering level, after the export...
          const level = table.get('dmitri.brown', 'group:engineering') === 'Standard' ? 1 : 4;
          await p.client.v3.members.update(p.acme, 'dmitri.brown', {
            assignGroupsRights: { [String(engineering)]: level },
          });
          const after = (await p.client.v3.members.page(p.acme, { page: 1, size: 100 })).items.find(
            (m) => m.user.username === 'dmitri.brown',
          );
          assert.equal(after?.user.lastModified === before?.user.lastModified, keep);
          // ...and the file, exported before, changes the member's marketing level.
          const was = table.get('dmitri.brown', 'group:marketing');
          table.set('dmitri.brown', 'group:marketing', was === 'Administrator' ? 'Basic' : 'Administrator');
          const plan = await planOf(p, table.text());
          assert.deepEqual(
            plan.conflicts.map((c) => c.username),
            ['dmitri.brown'],
          );
          // The file's stale engineering cell would undo the other change: it is left out unless chosen.
          assert.ok(plan.leftOutByDefault.includes(`dmitri.brown#group:${engineering}`));
          assert.ok(plan.leftOutByDefault.includes(`dmitri.brown#group:${marketing}`));
        },
        { groupChangesKeepLastModified: keep },
      );
    });
});

void describe('file and portal compared the same way', () => {
  void test('names with spaces, tabs and CR around, and decomposed accents, plan no rename', async () => {
    await withSeededPortal(
      (store) => {
        const [a, b, c, d] = acmeUsers(store);
        const set = (u: typeof a, name: string) => {
          const user = u ? store.users.get(u.userId) : undefined;
          if (user) user.name = name;
        };
        set(a, ' Alice Leading');
        set(b, 'Bruno Trailing\t');
        set(c, 'Chloe CR\r');
        set(d, 'Dmitri Andre\u0301');
      },
      async (p) => {
        const plan = await planOf(p, await exportText(p));
        assert.deepEqual(ids(plan), []);
        assert.deepEqual(plan.skipped, []);
      },
    );
  });

  void test('a null organisation permission and formula-looking e-mails read back as the portal holds them', async () => {
    await withSeededPortal(
      (store) => {
        const [a, b] = acmeUsers(store);
        for (const m of store.snapshot().memberships)
          if (m.userId === a?.userId) (m as { permission: number | null }).permission = null;
        const user = b ? store.users.get(b.userId) : undefined;
        if (user) user.email = '=cmd@acme.example';
      },
      async (p) => {
        const text = await exportText(p);
        const plan = await planOf(p, text);
        assert.deepEqual(ids(plan), []);
        assert.deepEqual(plan.skipped, []);
      },
    );
  });
});

void describe('the Problems panel', () => {
  void test("columns are named as the header writes them; the access matrix's export is not a members file", () => {
    const text = 'Username,Name,Member since,Last active\nann,' + 'x'.repeat(201) + ',,\n';
    const problems = diagnose(parseMembersFile(text));
    assert.deepEqual(
      problems.map((x) => [x.code, ...x.args.map(String)]),
      [
        ['no-lastmodified-column'],
        ['read-only-column', 'Member since'],
        ['read-only-column', 'Last active'],
        ['too-long', 'Name', '200'],
      ],
    );
    assert.equal(looksLikeMembersFile('Username,Name,E-mail,Tags,Engineering,Marketing'), false);
    assert.equal(looksLikeMembersFile('Username,Name,E-mail,Tags,Level'), false);
    assert.equal(looksLikeMembersFile('Username,Name,E-mail,Tags'), true);
    assert.equal(looksLikeMembersFile('username,email,group:engineering'), true);
  });
});
