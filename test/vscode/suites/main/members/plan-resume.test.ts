// The first half of "an apply interrupted by a restart": an apply over 20 members of the shared portal is left
// mid-way when this phase ends and the extension host goes down with it. Its client's request budget (12 requests
// an hour, set for the client made here only) runs out part-way, so some members are done and the rest not
// started. The restart phase (suites/restart/plan-resume.test.ts) finds the journal, offers to
// resume, and checks that every member was changed exactly once.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { portalIdOf } from '../../../../../src/auth/portalEntry';
import { csvLine } from '../../../../../src/features/members/csv/csv';
import { portalApi, signInForTest } from '../../../support/extension';
import { control, passwordToken, portalJson } from '../../../support/portalHttp';
import { eventually, RESUME_MEMBERS, RESUME_TAG } from '../../../support/membersFile';
import { ScriptedUi } from '../../../support/ui';
import { tempDir } from '../../../../support/tempDir';

interface MembersPage {
  items: Array<{ user: { username: string }; tags: string[] }>;
}

const suite = describe('Members: plan apply interrupted by a restart (before the restart)', function () {
  this.timeout(180_000);

  it('leaves an apply over 20 members running mid-way, stalled on a spent request budget, as the phase ends', async () => {
    const url = process.env.PORTAL_TEST_EMULATOR_URL;
    assert.ok(url, 'the runner provides the shared emulator');
    const portalId = portalIdOf(url, 'portal');
    const token = await passwordToken(url, 'demo', 'demo');
    const page = await portalJson<MembersPage>(url, token, 'GET', '/v3/accounts/1/members?page=1&size=100');
    const members = page.body.items
      .filter((m) => /^[a-z]+\.[a-z]+$/.test(m.user.username) && m.user.username !== 'victor.hale')
      .slice(0, RESUME_MEMBERS);
    assert.equal(members.length, RESUME_MEMBERS);
    // A file written by hand: only the columns it changes.
    const dir = tempDir('portal-resume-');
    const file = path.join(dir, 'onboarding.csv');
    fs.writeFileSync(
      file,
      [
        csvLine(['username', 'tags']),
        ...members.map((m) => csvLine([m.user.username, [...m.tags, RESUME_TAG].join(', ')])),
      ].join(''),
    );

    // A client made now, with a tiny budget: the apply stops starting members once it is spent.
    const config = vscode.workspace.getConfiguration('portal');
    await config.update('requestBudget.count', 12, vscode.ConfigurationTarget.Global);
    await config.update('requestBudget.windowSeconds', 3600, vscode.ConfigurationTarget.Global);
    try {
      const script = await signInForTest({ baseUrl: url, username: 'demo', password: 'demo' });
      assert.deepEqual(script.failures, []);
    } finally {
      await config.update('requestBudget.count', undefined, vscode.ConfigurationTarget.Global);
      await config.update('requestBudget.windowSeconds', undefined, vscode.ConfigurationTarget.Global);
    }

    const api = await portalApi();
    const ui = new ScriptedUi({
      'pick.portal': ((v: unknown) => v === portalId) as never,
      'pick.account': ((a: { accountId?: number }) => a.accountId === 1) as never,
      'plan.absent': 'Leave them alone',
      'plan.apply.confirm': true,
    });
    api.testing.useUi(ui);
    try {
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(file));
      await vscode.commands.executeCommand('portal.plan.planChanges');
      const shown = api.testing.members.plan.store.plan;
      assert.ok(shown, `a plan; asked: ${ui.questions.join(', ')}; told: ${ui.told.map((t) => t.text).join(' | ')}`);
      assert.equal(shown.plan.fieldChanges.length, RESUME_MEMBERS);
      await control(url, 'POST', 'stats/reset');
      // Not awaited: the apply never finishes in this phase.
      void vscode.commands.executeCommand('portal.plan.apply');
      const patches = async () =>
        ((await control(url, 'GET', 'stats')) as { byRoute: Record<string, number> }).byRoute[
          'PATCH /v3/accounts/:account/members/:username'
        ] ?? 0;
      // The budget runs out part-way: from then on the runner starts no member, whatever the machine's speed.
      const budget = api.registry.get(portalId)?.client?.budget;
      assert.ok(budget, 'the client made here has a request budget');
      await eventually(
        () => budget.used(),
        (used) => used >= budget.limit,
        'the apply spends the request budget',
      );
      const sent = await eventually(patches, (n) => n > 0, 'a member change reached the portal');
      assert.ok(
        sent > 0 && sent < RESUME_MEMBERS,
        `${sent} of ${RESUME_MEMBERS} members sent before the budget ran out`,
      );
    } finally {
      api.testing.useUi(undefined);
    }
  });
});

// This suite runs last but the command audit, so the stalled client (the shared portal's) holds up no other suite.
before(function () {
  const root = suite.parent;
  if (!root) return;
  root.suites.splice(root.suites.indexOf(suite), 1);
  root.suites.push(suite);
});
