// The portal-backed pick (Give Same Access's "Copy access from…", the file and folder pickers) in VS Code's own quick
// pick, driven by the workbench's accept command as Enter drives it: Enter while a search is still out picks nothing
// and keeps the pick open for the rows on their way, so the command goes on with the row accepted once they are in.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { searchPick } from '../../../../../src/ui/searchPick';
import type { PickItem } from '../../../../../src/ui/ui';
import { waitFor } from '../../../../support/wait';

const ACCEPT = 'workbench.action.acceptSelectedQuickOpenItem';

describe('A search pick in the workbench', function () {
  this.timeout(180_000);

  afterEach(async () => vscode.commands.executeCommand('workbench.action.closeQuickOpen'));

  it('Enter before the search has answered keeps the pick open, and the row accepted after it arrives is the answer', async () => {
    let release: () => void = () => undefined;
    const answered = new Promise<void>((r) => (release = r));
    let asked = 0;
    let yielded = false;
    const mia: PickItem<string> = { label: 'Mia Member', value: 'member' };
    const picked = searchPick<string>(
      async function* rows() {
        asked++;
        await answered;
        yield [mia];
        yielded = true;
      },
      { id: 'pick.member', placeHolder: 'Copy access from…' },
      (i) => ({ label: i.label, value: i.value }),
    );
    let settled = false;
    let value: string | undefined;
    void picked.then((v) => {
      settled = true;
      value = v;
    });
    await waitFor(() => asked === 1, 'the pick has asked the portal for its rows');
    // The pick's show reaches the workbench on the extension host's next turn; the accept is sent after it.
    await new Promise((r) => setImmediate(r));
    await vscode.commands.executeCommand(ACCEPT);
    assert.equal(settled, false, `Enter with no row closed the pick with ${String(value)}`);

    release();
    await waitFor(() => yielded, 'the search answered');
    await waitFor(async () => {
      await vscode.commands.executeCommand(ACCEPT);
      return settled;
    }, 'Enter took the row that arrived');
    assert.equal(value, 'member');
  });
});
