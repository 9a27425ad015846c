// Reading the portal for a plan: one walk of the member list, the group list only for a file with group columns,
// and a member's groups (a v2 read) only for rows whose group cells were edited since the export.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseMembersFile } from '../../../../../../src/features/members/plan/core/file/membersFile';
import { readGroups, readPortalState } from '../../../../../../src/features/members/plan/core/portalState';
import { apiRequests, exportText, Table, withPortal } from './helpers';

const MEMBER_READ = /^GET \/v2\/accounts\/:account\/members\/:/;
const LIST = /^GET \/v3\/accounts\/:account\/members$/;
const GROUPS = /^GET \/v2\/accounts\/:account\/groups$/;

for (const profile of ['default', 'literal'] as const) {
  void describe(`portal state (${profile} profile)`, () => {
    void test('group reads only for the rows whose groups were edited; none for a file without group columns', async () => {
      await withPortal(
        async (p) => {
          const table = new Table(await exportText(p));
          table.set('alice.muller', 'group:social', 'Standard');
          table.set('bruno.dubois', 'Tags', 'x');
          const file = parseMembersFile(table.text());
          p.emu.resetStats();
          const state = await readPortalState(p.client, p.acme, file);
          assert.equal(apiRequests(p.emu, MEMBER_READ), 1, 'one v2 read: the row whose group cell changed');
          assert.equal(apiRequests(p.emu, LIST), 1, 'acme fits one page');
          assert.equal(apiRequests(p.emu, GROUPS), 1);
          assert.equal(state.requests, apiRequests(p.emu));
          assert.ok(state.members.get('alice.muller')?.groups, 'alice.muller has her groups read');
          assert.equal(state.members.get('bruno.dubois')?.groups, undefined);

          p.emu.resetStats();
          const groups = await readGroups(p.client, p.acme);
          await readPortalState(p.client, p.acme, parseMembersFile(await exportText(p, false)), { groups });
          p.emu.resetStats();
          await readPortalState(p.client, p.acme, parseMembersFile(await exportText(p, false)));
          assert.equal(apiRequests(p.emu, GROUPS), 0, 'no group columns, no group list');
        },
        { profile },
      );
    });
  });
}

void describe('portal state: a file written by hand', () => {
  void test('group columns without a digest read each member on the portal once', async () => {
    await withPortal(async (p) => {
      const text =
        'username,group:engineering\nalice.muller,Basic\nbruno.dubois,\nnobody.new,Basic\nalice.muller,Basic\n';
      p.emu.resetStats();
      await readPortalState(p.client, p.acme, parseMembersFile(text));
      assert.equal(apiRequests(p.emu, MEMBER_READ), 2);
    });
  });
});
