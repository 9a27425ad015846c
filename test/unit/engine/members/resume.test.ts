// A resume sends only what its confirmation showed: the journal is a file anyone with the profile can edit, so the
// requests of the members that remain are rebuilt from the journal's checked before/after (what the confirmation
// shows), never taken from its request bodies. Against the real emulator.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Journal, memberJournal, resumeApply, unfinishedJournals } from '../../../../src/engine/members/index';
import { allChanges, type JournalWork, type MemberBefore, type Plan } from '../../../../src/engine/members/model';
import { withPortal, withStorage, type Portal } from '../../features/members/plan/core/helpers';

const ACME_GROUPS = ['101', '102', '103', '104'];

/** The member's values and levels in acme's groups, as a journal's `before` holds them. */
async function beforeOf(p: Portal, username: string): Promise<MemberBefore> {
  const m = await p.client.v3.members.get(p.acme, username);
  const v2 = await p.client.v2.members.get(p.acme, username);
  const byName: Record<string, string> = { engineering: '101', marketing: '102', handbook: '103', social: '104' };
  const groups: Record<string, 0 | 1 | 4 | 16> = Object.fromEntries(ACME_GROUPS.map((id) => [id, 0]));
  for (const [name, level] of Object.entries(v2.groups ?? {})) groups[byName[name] ?? ''] = level as 1 | 4 | 16;
  return {
    username,
    name: m.user.name,
    email: m.user.email,
    jobTitle: m.user.jobTitle,
    enabled: m.user.enabled,
    locked: m.user.locked,
    accountPermission: m.permission,
    tags: m.tags,
    twoFactor: m.twoFactorAuthentication,
    lastModified: m.user.lastModified,
    groups: Object.fromEntries(ACME_GROUPS.map((id) => [id, groups[id] ?? 0])),
  };
}

void describe('a resume sends what it shows', () => {
  void test('an edited journal: the confirmation reads a job title, and only the job title is sent', async () => {
    await withPortal(async (p) =>
      withStorage(async (storage) => {
        const before = await beforeOf(p, 'chloe.okafor');
        // A journal whose planned work says "job title → Analyst", edited so its requests make the member
        // Administrator of every group and a Super administrator; and a new member whose create asks for more.
        const work: JournalWork[] = [
          {
            seq: 0,
            username: 'chloe.okafor',
            row: 1,
            action: 'update',
            changeIds: ['chloe.okafor#field:jobTitle'],
            before,
            after: { fields: { jobTitle: 'Analyst' }, groups: {} },
            requests: [
              { method: 'v2.update', body: { user: { jobTitle: 'Analyst' } } },
              { method: 'v3.update', body: { assignGroupsAdmin: [101, 102, 103, 104], permission: 16 } },
            ],
            groupNames: {},
            permanent: false,
          },
          {
            seq: 1,
            username: 'new.starter',
            row: 2,
            action: 'create',
            changeIds: ['new.starter#create'],
            before: null,
            after: {
              fields: { name: 'New Starter', email: 'new.starter@acme.example', enabled: true, accountPermission: 1 },
              groups: { '103': 1 },
            },
            requests: [
              {
                method: 'v3.create',
                body: {
                  username: 'new.starter',
                  name: 'New Starter',
                  email: 'new.starter@acme.example',
                  enabled: true,
                  rights: 16,
                  assignGroups: { '101': 16, '103': 1 },
                },
              },
            ],
            groupNames: { '103': 'handbook' },
            permanent: false,
          },
        ];
        const journal = await Journal.create(memberJournal, storage, {
          accountId: p.acme,
          portalId: 'test',
          origin: 'file',
          startedAt: Date.now(),
          work,
        });
        await journal.close();
        const [record] = await unfinishedJournals(storage);
        assert.ok(record, 'offered as interrupted');
        let shown: Plan | undefined;
        const result = await resumeApply(p.client, record, {
          journalFolder: storage,
          confirm: async (remaining) => {
            shown = remaining;
            return true;
          },
        });
        assert.deepEqual(
          result.rows.map((r) => [r.username, r.result]),
          [
            ['chloe.okafor', 'done'],
            ['new.starter', 'done'],
          ],
        );
        const changes = allChanges(shown as Plan);
        assert.deepEqual(
          changes
            .filter((c) => c.username === 'chloe.okafor')
            .map((c) => (c.kind === 'field' ? [c.field, c.after] : c.kind)),
          [['jobTitle', 'Analyst']],
          'the confirmation showed one job title',
        );
        const chloe = await p.client.v3.members.get(p.acme, 'chloe.okafor');
        assert.equal(chloe.user.jobTitle, 'Analyst');
        assert.equal(chloe.permission, before.accountPermission, 'no organisation permission was sent');
        const chloeGroups = (await p.client.v2.members.get(p.acme, 'chloe.okafor')).groups ?? {};
        assert.ok(
          !Object.values(chloeGroups).includes(16),
          `no group Administrator level: ${JSON.stringify(chloeGroups)}`,
        );
        const starter = await p.client.v3.members.get(p.acme, 'new.starter');
        assert.equal(starter.permission, 1, 'created as the confirmation showed: a Member');
        assert.deepEqual({ ...(await p.client.v2.members.get(p.acme, 'new.starter')).groups }, { handbook: 1 });
      }),
    );
  });
});
