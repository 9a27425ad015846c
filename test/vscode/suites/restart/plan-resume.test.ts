// The second half of "an apply interrupted by a restart" (the first: suites/main/members/plan-resume.test.ts). The
// extension host went down mid-apply; this start must say so, offer to resume, and resuming must change every
// member exactly once: the ones done before the restart are not sent again, and none is left out.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { portalApi } from '../../support/extension';
import { RESUME_MEMBERS, RESUME_TAG } from '../../support/membersFile';
import { control, passwordToken, portalJson } from '../../support/portalHttp';
import { visible, withUi } from '../../support/ui';

interface MembersPage {
  items: Array<{ user: { username: string }; tags: string[] }>;
}

describe('Members: plan apply interrupted by a restart (after the restart)', function () {
  this.timeout(180_000);

  it('the next start offers to resume; resuming changes every member exactly once', async () => {
    const url = process.env.PORTAL_TEST_EMULATOR_URL;
    assert.ok(url, 'the runner provides the shared emulator');
    const token = await passwordToken(url, 'demo', 'demo');
    const tagged = async () =>
      (await portalJson<MembersPage>(url, token, 'GET', '/v3/accounts/1/members?page=1&size=100')).body.items.filter(
        (m) => m.tags.includes(RESUME_TAG),
      );
    const patches = async () =>
      ((await control(url, 'GET', 'stats')) as { byRoute: Record<string, number> }).byRoute[
        'PATCH /v3/accounts/:account/members/:username'
      ] ?? 0;

    const plan = (await portalApi()).testing.members.plan;
    const offered = await plan.startupOffer;
    assert.match(
      visible(offered ?? ''),
      new RegExp(
        `^An apply to Acme Corporation stopped before it finished \\(started .*; \\d+ of ${RESUME_MEMBERS} members done\\)\\. Resume it, or undo what it did\\?$`,
      ),
      'the start says an apply was interrupted',
    );
    const doneBefore = (await tagged()).length;
    const sentBefore = await patches();
    assert.ok(doneBefore > 0 && doneBefore < RESUME_MEMBERS, `${doneBefore} members were changed before the restart`);
    assert.equal(sentBefore, doneBefore, 'nothing was in flight');

    await withUi({ 'plan.interrupted': 'resume', 'plan.resume.confirm': true }, async (ui) => {
      await vscode.commands.executeCommand('portal.plan.resume');
      // What remains is shown before anything is sent: the members without an outcome in the journal.
      assert.deepEqual(ui.questions, ['plan.interrupted', 'plan.resume.confirm']);
      assert.match(
        visible(ui.asked.find((q) => q.id === 'plan.resume.confirm')?.texts.join('\n') ?? ''),
        /^Resume the interrupted apply to Acme Corporation\? \d+ members remain\./,
      );
      assert.match(ui.told.map((t) => visible(t.text)).join('\n'), /^Applied to Acme Corporation\. Done: \d+\./m);
    });
    const after = await tagged();
    assert.equal(after.length, RESUME_MEMBERS, 'every member is changed');
    for (const m of after)
      assert.equal(m.tags.filter((t) => t === RESUME_TAG).length, 1, `${m.user.username} has the tag once`);
    assert.equal(await patches(), RESUME_MEMBERS, 'one request per member in all: none was sent twice');

    // Nothing is left to resume.
    await withUi({}, async (ui) => {
      await vscode.commands.executeCommand('portal.plan.resume');
      assert.deepEqual(
        ui.told.map((t) => visible(t.text)),
        ['No apply was interrupted: there is nothing to resume.'],
      );
    });
  });
});
