// The rules every command shares, because every command is registered through one wrapper: arguments that are not
// our own rows are ignored (the command asks, as from the palette), a withheld answer ends the command quietly, and a
// signed-out portal's error offers the sessions list.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { startDemoPortal, stopDemoPortal, type DemoPortal } from '../../../support/demoPortal';
import { portalApi } from '../../../support/extension';
import { nodeOf } from '../../../support/tree';
import { DISMISS, withUi, type Answers } from '../../../support/ui';
import { waitFor } from '../../../../support/wait';

describe('Commands: one wrapper for all of them', function () {
  this.timeout(180_000);
  let p: DemoPortal;
  const acme = () => ({ portalId: p.portalId, accountId: 1 });

  before(async () => {
    p = await startDemoPortal();
  });

  after(async () => stopDemoPortal(p));

  it('ignores an argument it did not make and asks instead, for every kind of target', async () => {
    const engineering = { kind: 'group' as const, ...acme(), groupId: 101 };
    const cases: Array<[string, unknown, string]> = [
      ['portal.group.copyId', { ...engineering }, 'pick.group'],
      ['portal.account.details', { ...acme(), label: 'Acme' }, 'pick.account'],
      ['portal.member.copyUsername', { ...acme(), username: 'member' }, 'pick.member'],
      ['portal.application.copyClientId', { portalId: p.portalId, clientId: 'demo-sync' }, 'pick.application'],
      ['portal.file.copyId', { ...engineering, fileId: 100001, name: 'README.md' }, 'pick.group'],
    ];
    // Whichever questions come first (which portal, which organisation), the user dismisses the one that names the target.
    const answers: Answers = {
      'pick.portal': Array(cases.length).fill((id: string) => id === p.portalId),
      'pick.account': Array(cases.length).fill((a: { accountId: number }) => a.accountId === 1),
      'pick.group': DISMISS,
      'pick.member': DISMISS,
      'pick.application': DISMISS,
    };
    (await portalApi()).testing.members.show({ kind: 'account', ...acme(), label: 'Acme Corporation' });
    await withUi(
      answers,
      async (ui) => {
        for (const [command, forged, asks] of cases) {
          const before = ui.questions.length;
          assert.equal(await vscode.commands.executeCommand(command, forged), undefined, command);
          const asked = ui.questions.slice(before);
          assert.equal(asked.at(-1), asks, `${command} asked ${asked.join(', ')}`);
        }
        assert.deepEqual(ui.copied, [], 'nothing was copied');
        assert.deepEqual(ui.told, [], 'a dismissed question says nothing');
      },
      { allUsed: false },
    );
  });

  it('the same commands on our own rows act at once', async () => {
    const group = await nodeOf({ kind: 'group', ...acme(), groupId: 101 });
    const member = await nodeOf({ kind: 'member', ...acme(), username: 'member' });
    await withUi({}, async (ui) => {
      await vscode.commands.executeCommand('portal.group.copyId', group);
      await vscode.commands.executeCommand('portal.member.copyUsername', member);
      assert.deepEqual(ui.copied, ['101', 'member']);
      assert.deepEqual(ui.questions, []);
    });
  });

  it('a cancelled question or a dismissed confirmation ends the command without a notification', async () => {
    const group = await nodeOf({ kind: 'group', ...acme(), groupId: 102 });
    await withUi({ 'group.duplicate.name': DISMISS, 'group.trash': false }, async (ui) => {
      assert.equal(await vscode.commands.executeCommand('portal.group.duplicate', group), undefined);
      assert.equal(await vscode.commands.executeCommand('portal.group.trash', group), false);
      assert.deepEqual(ui.told, []);
    });
  });

  it('a signed-out portal\'s error offers "Show sessions", which opens the sessions list', async () => {
    const group = await nodeOf({ kind: 'group', ...acme(), groupId: 101 });
    const api = await portalApi();
    await api.registry.signOut(p.portalId, 'Signed out for the test.');
    await withUi(
      { 'group.duplicate.name': 'Copy', 'error.signedOut': 'sessions', 'sessions.pick': DISMISS },
      async (ui) => {
        assert.equal(await vscode.commands.executeCommand('portal.group.duplicate', group), undefined);
        await waitFor(() => ui.questions.includes('sessions.pick'), 'the sessions list opens');
        const error = ui.asked.find((q) => q.id === 'error.signedOut');
        assert.ok(error?.texts.includes('Show sessions'), JSON.stringify(error));
        assert.match(error?.texts[0] ?? '', /Signed out for the test/);
        assert.deepEqual(ui.told, [], 'one message: the one with the button');
      },
    );
  });
});
