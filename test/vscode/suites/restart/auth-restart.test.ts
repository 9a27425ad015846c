import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { portalIdOf } from '../../../../src/auth/portalEntry';
import { portalApi } from '../../support/extension';
import { control } from '../../support/portalHttp';
import { withUi } from '../../support/ui';

describe('After an extension-host restart', function () {
  this.timeout(180_000);

  it('restores the session from SecretStorage without asking anything', async () => {
    const url = process.env.PORTAL_TEST_EMULATOR_URL;
    assert.ok(url, 'the runner provides the shared emulator');
    const api = await portalApi();
    await withUi({}, async (ui) => {
      const id = portalIdOf(url, 'portal');
      const c = api.registry.get(id);
      assert.ok(c?.client, 'signed in straight after activation');
      assert.equal(c.username, 'demo');
      const info = await c.client.v3.userinfo();
      assert.equal(info.name, 'demo');
      const accounts = await vscode.authentication.getAccounts('portal');
      assert.ok(
        accounts.some((x) => x.label.startsWith('demo @')),
        accounts.map((x) => x.label).join(', '),
      );
      assert.deepEqual(ui.questions, [], 'no prompt');
      const stats = (await control(url, 'GET', 'stats')) as { tokenRequests: number };
      assert.ok(stats.tokenRequests >= 1, 'a new token came from the stored client credentials');
    });
  });
});
