// The walkthrough's steps tick from what is already true when a window starts, not only from what happens in it: the
// main phase showed the Portal view and opened Edit Assignments (activation/walkthrough.test.ts); after the restart
// nothing has happened yet, and the keys those steps wait for are set from the extension's state alone.
import assert from 'node:assert/strict';
import { portalApi } from '../../support/extension';
import { waitFor } from '../../../support/wait';

describe('After an extension-host restart: Walkthrough steps tick from the state', function () {
  this.timeout(120_000);

  it('"Browse" and "Edit a member\'s assignments" are set at activation; "Sign in" says what the portals say', async () => {
    const api = await portalApi();
    const key = (name: string) => api.testing.contextKey(name);
    assert.equal(key('portal.assignmentsOpened'), true, 'Edit Assignments was opened before the restart');
    assert.equal(key('portal.explorerShown'), true, 'the Portal view was shown before the restart');
    const anySignedIn = () => api.registry.list().some((c) => c.client !== undefined);
    await waitFor(() => key('portal.signedIn') === anySignedIn(), '"Sign in" says what the portals say');
  });
});
