// Signing out of a portal offers to remove what this computer keeps about its people. On a portal of its own (signing
// out of the shared one would sign out every later suite): an apply through the extension leaves its journal and
// report; a sign-out whose offer is dismissed keeps them, the user's alone (0600 files in 0700 folders); the next
// sign-out, answered Remove, leaves none of them, and the folders still private.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { journalFolderOf } from '../../../../../src/engine/members/index';
import { csvLine } from '../../../../../src/features/members/csv/csv';
import { reportNames, reportsFolderOf } from '../../../../../src/features/members/plan/core/report';
import { startDemoPortal, stopDemoPortal, type DemoPortal } from '../../../support/demoPortal';
import { portalApi, signInForTest } from '../../../support/extension';
import { portalJson } from '../../../support/portalHttp';
import { nodeOf } from '../../../support/tree';
import { DISMISS, visible, withUi, type ScriptedUi } from '../../../support/ui';
import { waitFor } from '../../../../support/wait';
import { tempDir } from '../../../../support/tempDir';

interface MembersPage {
  items: Array<{ user: { username: string }; tags: string[] }>;
}

const mode = (file: string): string => (fs.statSync(file).mode & 0o777).toString(8);
const asked = (ui: ScriptedUi, id: string): string =>
  visible(ui.asked.find((q) => q.id === id)?.texts.join('\n') ?? '');

describe('Members: local data offered for removal on sign-out', function () {
  this.timeout(270_000);
  let p: DemoPortal;
  let storage: string;
  let dir: string;

  /** This portal's journals and their reports, as files on disk. */
  const kept = (): string[] => {
    const mine: string[] = [];
    const journals = journalFolderOf(storage);
    for (const name of fs.existsSync(journals) ? fs.readdirSync(journals) : []) {
      const file = path.join(journals, name);
      if (!name.endsWith('.jsonl') || !fs.readFileSync(file, 'utf8').includes(JSON.stringify(p.portalId))) continue;
      mine.push(file);
      const applyId = name.replace(/\.jsonl$/, '');
      const names = reportNames(applyId);
      const report = [names.taken, names.first, names.older]
        .map((n) => path.join(reportsFolderOf(storage), n))
        .find((f) => fs.existsSync(f));
      if (report) mine.push(report);
    }
    return mine;
  };

  const signOut = (answer: string | typeof DISMISS, until: (ui: ScriptedUi) => boolean) =>
    withUi({ 'signOut.choice': 'signOut', 'localData.remove': answer }, async (ui) => {
      await vscode.commands.executeCommand('portal.signOut', await nodeOf({ kind: 'portal', portalId: p.portalId }));
      // The offer follows the sign-out; the command does not wait for it.
      await waitFor(() => until(ui), 'the offer was answered');
      assert.equal((await portalApi()).registry.get(p.portalId)?.client, undefined, 'signed out');
      return ui;
    });

  before(async () => {
    dir = tempDir('portal-local-data-');
    p = await startDemoPortal({ profile: 'default' });
    storage = (await portalApi()).testing.members.plan.storage;
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await stopDemoPortal(p);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('an apply leaves its journal and report; a dismissed offer keeps them, 0600 in 0700 folders', async () => {
    const page = await portalJson<MembersPage>(p.emu.url, p.token, 'GET', '/v3/accounts/1/members?page=1&size=100');
    const names = page.body.items
      .map((m) => m.user.username)
      .filter((n) => /^[a-z]+\.[a-z]+$/.test(n))
      .slice(0, 2);
    const file = path.join(dir, 'tags.csv');
    fs.writeFileSync(file, [csvLine(['username', 'tags']), ...names.map((n) => csvLine([n, 'local-data']))].join(''));
    await withUi(
      {
        'pick.portal': ((v: unknown) => v === p.portalId) as never,
        'pick.account': ((a: { accountId?: number }) => a.accountId === 1) as never,
        'plan.absent': 'Leave them alone',
        'plan.apply.confirm': true,
      },
      async (ui) => {
        await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(file));
        await vscode.commands.executeCommand('portal.plan.planChanges');
        await vscode.commands.executeCommand('portal.plan.apply');
        assert.match(ui.told.map((t) => visible(t.text)).join('\n'), /^Applied to .+\. Done: 2\./m);
      },
      { allUsed: false },
    );
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const files = kept();
    assert.equal(files.length, 2, `a journal and its report: ${files.join(', ')}`);

    const ui = await signOut(DISMISS, (u) => u.asked.some((q) => q.id === 'localData.remove'));
    assert.match(
      asked(ui, 'localData.remove'),
      // Then, when other suites left them, what is every portal's (chat's call log, a staged drop): named apart.
      /^Remove what this computer keeps about the people of .+\? 1 apply journal, 1 action report(\.|; and, for every portal, not this one alone: )/,
    );
    assert.deepEqual(kept(), files, 'dismissed: nothing was removed');
    for (const f of files) {
      assert.equal(mode(f), '600', `${path.basename(f)} is the user's alone`);
      assert.equal(mode(path.dirname(f)), '700', `${path.dirname(f)} is the user's alone`);
    }
    assert.equal(mode(storage), '700');
  });

  it('signed out again and answered Remove: none of its files is left, and the folders stay private', async () => {
    const files = kept();
    assert.equal(files.length, 2);
    const script = await signInForTest({ baseUrl: p.emu.url, username: 'demo', password: 'demo' });
    assert.deepEqual(script.failures, []);
    const ui = await signOut('remove', (u) => u.told.some((t) => /^Removed \d+ files kept for /.test(visible(t.text))));
    // Its journal and report, and what is every portal's (chat's call log, when another suite left one).
    assert.match(ui.told.map((t) => visible(t.text)).join('\n'), /^Removed \d+ files kept for /m);
    assert.deepEqual(kept(), []);
    for (const f of files) assert.equal(fs.existsSync(f), false, `${path.basename(f)} is gone`);
    for (const folder of [storage, journalFolderOf(storage), reportsFolderOf(storage)])
      assert.equal(mode(folder), '700', `${folder} is the user's alone`);
  });
});
