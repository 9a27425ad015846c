// After a sign-in, one notification says which portal and who, with the user's name from the portal shown as plain
// text (no link, no icon), and offers the Portal view.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { startEmulator, type Emulator } from '../../../../emulator';
import { portalIdOf } from '../../../../../src/auth/portalEntry';
import { isPlain } from '../../../../../src/shared/plainText';
import { portalApi, signInAnswers } from '../../../support/extension';
import { addAdministrator } from '../../../support/portalHttp';
import { features } from '../../../support/tree';
import { visible, withUi } from '../../../support/ui';
import { waitFor } from '../../../../support/wait';

describe('Sign-in says who is signed in', function () {
  this.timeout(120_000);
  let emu: Emulator;
  const username = `eve${randomBytes(3).toString('hex')}`;
  const password = `Pw-${randomBytes(12).toString('hex')}`;
  const name = 'Eve [run](command:workbench.action.quit) $(zap)';

  before(async () => {
    emu = await startEmulator({ port: 0, seed: 'demo', quiet: true });
    await addAdministrator(emu.url, { name, username, password });
  });

  after(async () => {
    const api = await portalApi();
    const id = portalIdOf(emu.url, 'portal');
    if (api.registry.get(id)) await api.registry.remove(id);
    await emu.stop();
  });

  it('names the portal and the user (as plain text) and offers to open the Portal view', async () => {
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    const explorer = (await features()).explorer.view;
    await withUi(
      { ...signInAnswers({ baseUrl: emu.url, username, password }), 'signIn.done': 'open' },
      async (ui) => {
        await vscode.commands.executeCommand('portal.signIn');
        const notice = ui.asked.find((q) => q.id === 'signIn.done');
        assert.ok(notice, `asked: ${ui.questions.join(', ')}`);
        const [message = '', action = ''] = notice.texts;
        assert.ok(isPlain(message), message);
        assert.match(
          visible(message),
          /^Signed in to \S+ as Eve \[run\]\(command:workbench\.action\.quit\) \$\(zap\) \(eve/,
        );
        assert.equal(action, 'Open Portal View');
      },
      { allUsed: false },
    );
    await waitFor(() => explorer.visible, 'the Portal view is shown');
  });
});
