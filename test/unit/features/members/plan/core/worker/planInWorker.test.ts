// Rows given as data (chat's proposals) are planned by the same worker as a members file's text: the same group reads
// asked of the portal, the same plan as those rows written as a file, and a key a row leaves out left as the portal
// holds it, though another row gives it (a CSV written from the rows would have emptied that cell).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { csvLine } from '../../../../../../../src/features/members/csv/csv';
import {
  membersFileOfRows,
  parseMembersFile,
} from '../../../../../../../src/features/members/plan/core/file/membersFile';
import { allChanges } from '../../../../../../../src/features/members/plan/core/model';
import { makePlan } from '../../../../../../../src/features/members/plan/core/planner';
import {
  namedUsernames,
  readNamedPortalState,
  readPortalState,
} from '../../../../../../../src/features/members/plan/core/portalState';
import {
  readInWorker,
  rowsInWorker,
  type FileInWorker,
  type PlanMade,
} from '../../../../../../../src/features/members/plan/core/worker/planInWorker';
import type { PortalState } from '../../../../../../../src/features/members/plan/core/model';
import { withPortal, type Portal } from '../helpers';

type Rows = ReadonlyArray<Readonly<Record<string, string>>>;

async function planned(
  worker: FileInWorker,
  read: (w: FileInWorker) => Promise<PortalState>,
): Promise<PlanMade & { state: PortalState }> {
  try {
    const state = await read(worker);
    return { ...(await worker.plan(state, { absent: 'leave', now: 0 })), state };
  } finally {
    await worker.close();
  }
}

const walk = (p: Portal) => (w: FileInWorker) => readPortalState(p.client, p.acme, w.needs);

void describe('rows planned in the worker', () => {
  void test('rows given as data make the plan, and ask the reads, of the same rows written as a members file', async () => {
    await withPortal(async (p) => {
      // Every row with every key: written as a file, no cell is left empty that the rows did not empty.
      const rows: Rows = [
        { username: 'yara.haddad', jobTitle: 'Analyst', 'group:marketing': 'Standard', tags: 'security, chat' },
        { username: 'member', jobTitle: '', 'group:marketing': 'Basic', tags: '' },
        { username: 'chat.new', jobTitle: 'New', 'group:marketing': 'Administrator', tags: 'new-hire' },
        { username: 'victor.hale', jobTitle: 'Back', 'group:marketing': 'Boss', tags: '' },
      ];
      const keys = Object.keys(rows[0] ?? {});
      const text = rows.reduce((t, r) => t + csvLine(keys.map((k) => r[k] ?? '')), csvLine(keys));
      const fromRows = await planned(await rowsInWorker(membersFileOfRows(rows)), walk(p));
      const fromText = await planned(await readInWorker(text, {}), walk(p));
      assert.equal(fromRows.state.requests, fromText.state.requests, 'the same portal reads, group reads included');
      const file = parseMembersFile(text);
      const here = makePlan(file, fromRows.state, { absent: 'leave', now: 0 });
      // The problems' places differ (rows have no text to place a cell in); what they say and the changes do not.
      const codes = (plan: PlanMade['plan']) =>
        (plan.skipped ?? []).map((s) => [s.row, s.username, s.problems.map((x) => [x.code, x.args])]);
      // Each worker read the portal at its own moment.
      const withoutSkipped = ({ skipped: _, source, ...plan }: PlanMade['plan']) => ({
        ...plan,
        readAt: source?.readAt === undefined ? undefined : 0,
        rows: source?.rows,
        lines: source?.rowLines,
      });
      for (const plan of [fromText.plan, here]) {
        assert.deepEqual(withoutSkipped(fromRows.plan), withoutSkipped(plan));
        assert.deepEqual(codes(fromRows.plan), codes(plan));
      }
      assert.deepEqual(codes(fromRows.plan), [
        [
          3,
          'chat.new',
          [
            ['missing-for-create', ['chat.new', 'name']],
            ['missing-for-create', ['chat.new', 'email']],
          ],
        ],
        [4, 'victor.hale', [['bad-group-permission', ['Boss']]]],
      ]);
      assert.ok(allChanges(fromRows.plan).length >= 3, 'yara.haddad’s job title, tags and group');
      assert.deepEqual(
        fromRows.problems,
        fromText.problems.map((x) => ({ ...x, column: 0, endColumn: 0 })),
      );
    });
  });

  void test('a key a row leaves out is left as the portal holds it, though another row gives it', async () => {
    await withPortal(async (p) => {
      // yara.haddad has a job title and tags, member has a job title: neither row gives those, the other row does.
      const rows: Rows = [
        { username: 'yara.haddad', 'group:marketing': 'Standard' },
        { username: 'member', jobTitle: 'Chat wrote this', tags: 'chat' },
      ];
      const file = membersFileOfRows(rows);
      const usernames = namedUsernames(file);
      const made = await planned(await rowsInWorker(file), (w) =>
        readNamedPortalState(p.client, p.acme, usernames, w.needs),
      );
      const yara = made.state.members.get('yara.haddad');
      assert.ok(yara?.jobTitle && yara.tags.length > 0, 'the seed gives her a job title and tags to keep');
      assert.deepEqual(
        allChanges(made.plan)
          .map((c) => c.id)
          .sort(),
        ['member#field:jobTitle', 'member#field:tags', `yara.haddad#group:${groupId(made.state, 'marketing')}`],
      );
      assert.deepEqual(
        made.problems.filter((x) => x.severity === 'error'),
        [],
      );
    });
  });

  void test('a group the rows name that the portal lacks is a problem of the file, said with the plan', async () => {
    await withPortal(async (p) => {
      const made = await planned(
        await rowsInWorker(membersFileOfRows([{ username: 'member', 'group:no-such-group': 'Basic' }])),
        walk(p),
      );
      assert.deepEqual(
        made.problems.filter((x) => x.severity === 'error').map((x) => [x.code, x.args]),
        [['unknown-group', ['no-such-group']]],
      );
      assert.deepEqual(allChanges(made.plan), []);
    });
  });
});

function groupId(state: PortalState, name: string): number {
  const id = state.groups.find((g) => g.name === name)?.id;
  assert.ok(id !== undefined, `no group ${name}`);
  return id;
}
