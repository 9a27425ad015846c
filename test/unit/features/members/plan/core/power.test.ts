// Changes that can take over an administrator are named as power: a new e-mail (a password reset then goes there),
// two-factor authentication off, enabled or unlocked, for a Super administrator, a Group creator or an Administrator
// of any group, whether or not the file has group columns. The same changes for a plain member grant nothing.
// In the plan and, once the portal is read, in the Problems panel's checks. Against the real emulator.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { diagnose } from '../../../../../../src/features/members/plan/core/file/diagnose';
import { parseMembersFile } from '../../../../../../src/features/members/plan/core/file/membersFile';
import { planElevations } from '../../../../../../src/features/members/plan/core/elevation';
import { allChanges } from '../../../../../../src/features/members/plan/core/model';
import { makePlan } from '../../../../../../src/features/members/plan/core/planner';
import { readPortalState } from '../../../../../../src/features/members/plan/core/portalState';
import { readInWorker } from '../../../../../../src/features/members/plan/core/worker/planInWorker';
import { exportText, Table } from './helpers';
import { withSeededPortal } from './seeded';

void describe("an administrator's sign-in is power", () => {
  void test('e-mail, two-factor off, enable and unlock of an administrator are elevations; of a member, not', async () => {
    await withSeededPortal(
      (store) => {
        // victor.hale (disabled) a Super administrator, lena.locked (locked) a Group creator.
        const acme = [...store.accounts.values()].find((a) => a.name === 'acme');
        for (const [username, permission] of [
          ['victor.hale', 16],
          ['lena.locked', 4],
        ] as const) {
          const user = [...store.users.values()].find((u) => u.username === username);
          const m = store.snapshot().memberships.find((x) => x.userId === user?.id && x.accountId === acme?.id);
          assert.ok(m, username);
          Object.assign(m, { permission });
        }
      },
      async (p) => {
        // Without group columns: elif.muller is an Administrator of Engineering only, which the plan must read.
        const table = new Table(await exportText(p, false));
        table.set('alice.andersen', 'E-mail', 'alice@outside.example'); // Super administrator
        table.set('elif.muller', 'E-mail', 'elif@outside.example'); // Administrator of a group
        table.set('demo-2fa', 'Two-factor', 'false'); // Group creator
        table.set('victor.hale', 'Enabled', 'true');
        table.set('lena.locked', 'Locked', 'false');
        table.set('chloe.okafor', 'E-mail', 'chloe@outside.example'); // a Member in no group as Administrator
        const file = parseMembersFile(table.text());
        const state = await readPortalState(p.client, p.acme, file);
        const plan = makePlan(file, state);
        assert.equal(allChanges(plan).length, 6, 'every edit is planned');
        assert.deepEqual(
          planElevations(plan, allChanges(plan))
            .map((e) => [e.change.username, e.elevations.map((x) => `${x.kind}:${x.field ?? ''}`)])
            .sort(),
          [
            ['alice.andersen', ['administrator-sign-in:email']],
            ['demo-2fa', ['administrator-sign-in:twoFactor']],
            ['elif.muller', ['administrator-sign-in:email']],
            ['lena.locked', ['administrator-sign-in:locked']],
            ['victor.hale', ['administrator-sign-in:enabled']],
          ],
        );
        // Plan Changes… plans in its worker: the same group reads, the same elevations.
        const inWorker = await readInWorker(table.text(), {});
        try {
          const workerState = await readPortalState(p.client, p.acme, inWorker.needs);
          assert.equal(workerState.requests, state.requests, 'the same group reads');
          const { plan: workerPlan } = await inWorker.plan(workerState, {});
          assert.equal(planElevations(workerPlan, allChanges(workerPlan)).length, 5);
        } finally {
          await inWorker.close();
        }
        const problems = diagnose(file, { groups: state.groups, members: state.members, readAt: state.readAt });
        const warned = problems
          .filter((x) => x.code === 'elevation')
          .map((x) => [x.severity, x.args[0], x.args[1]])
          .sort();
        assert.deepEqual(warned, [
          ['warning', 'administrator-sign-in', 'email'],
          ['warning', 'administrator-sign-in', 'email'],
          ['warning', 'administrator-sign-in', 'enabled'],
          ['warning', 'administrator-sign-in', 'locked'],
          ['warning', 'administrator-sign-in', 'twoFactor'],
        ]);
        const lines = table
          .text()
          .replace(/^\uFEFF/, '')
          .split(/\r?\n/);
        const line = lines.findIndex((l) => l.startsWith('elif.muller,'));
        const elif = problems.find((x) => x.code === 'elevation' && x.line === line);
        assert.equal(elif?.column, lines[line]?.indexOf('elif@outside.example'), 'at the e-mail cell');
      },
    );
  });
});
