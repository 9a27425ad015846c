// Reading the portal for a plan: one walk of the member list, the group list only for a file with group columns,
// and a member's groups (a v2 read) only for rows whose group cells were edited since the export.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseMembersFile } from '../../../../../../src/features/members/plan/core/file/membersFile';
import { makePlan } from '../../../../../../src/features/members/plan/core/planner';
import {
  readGroups,
  namedUsernames,
  readNamedPortalState,
  readPortalState,
  stateReads,
} from '../../../../../../src/features/members/plan/core/portalState';
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

void describe('portal state: only the members a file names', () => {
  for (const profile of ['default', 'literal'] as const)
    void test(`one read each, no walk, and the same plan as the walk (${profile} profile)`, async () => {
      await withPortal(
        async (p) => {
          const text =
            'username,jobTitle,group:engineering\nalice.muller,Analyst,Standard\nBruno.Dubois,,\nnobody.new,New,Basic\n';
          const file = parseMembersFile(text);
          p.emu.resetStats();
          const named = await readNamedPortalState(p.client, p.acme, namedUsernames(file), file);
          assert.equal(apiRequests(p.emu, LIST), 0, 'no walk of the member list');
          assert.equal(apiRequests(p.emu, /^GET \/v3\/accounts\/:account\/members\/:/), 3, 'one read per name');
          assert.equal(apiRequests(p.emu, MEMBER_READ), 2, 'the groups of the two on the portal');
          assert.equal(named.requests, apiRequests(p.emu));
          assert.ok(named.requests <= stateReads(file, 1).named, 'within the count said beforehand');
          assert.deepEqual([...named.members.keys()].sort(), ['alice.muller', 'bruno.dubois']);
          const walked = await readPortalState(p.client, p.acme, file);
          const options = { absent: 'leave', now: 0 } as const;
          assert.deepEqual(
            makePlan(file, named, options),
            makePlan(file, { ...walked, readAt: named.readAt }, options),
          );
        },
        { profile },
      );
    });
});
