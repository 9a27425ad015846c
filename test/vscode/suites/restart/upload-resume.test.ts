// The second half of "an upload interrupted by a restart" (the first: suites/main/records/upload-restart.test.ts).
// The extension host went down with an upload cut off part-way; this start must resume it from the journal: every
// file on the portal exactly once, none sent twice and none lost.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { passwordToken, portalJson } from '../../support/portalHttp';
import { visible, withUi } from '../../support/ui';
import { RESTART_FILES, RESTART_TARGET, restartFileName } from '../../support/uploadRestart';

describe('Uploads: an upload interrupted by a restart (after the restart)', function () {
  this.timeout(180_000);

  it('Resume Interrupted Upload… sends only what had not landed: every file once, none lost', async () => {
    const url = process.env.PORTAL_TEST_EMULATOR_URL;
    assert.ok(url, 'the runner provides the shared emulator');
    const token = await passwordToken(url, 'demo', 'demo');
    const names = async (): Promise<string[]> =>
      (
        await portalJson<{ page: Array<{ name: string }> }>(
          url,
          token,
          'GET',
          `/v2/accounts/${RESTART_TARGET.accountId}/groups/${RESTART_TARGET.groupId}/files?recursive=true&size=1000`,
        )
      ).body.page
        .map((f) => f.name)
        .filter((n) => /^u-\d\d\.txt$/.test(n));
    const before = (await names()).length;
    assert.ok(before > 0 && before < RESTART_FILES, `${before} files landed before the restart`);
    await withUi({ 'upload.interrupted': 'resume' }, async (ui) => {
      await vscode.commands.executeCommand('portal.upload.resume');
      assert.match(visible(ui.told.at(-1)?.text ?? ''), /remaining files uploaded\.$/);
    });
    const after = (await names()).sort();
    assert.deepEqual(
      after,
      Array.from({ length: RESTART_FILES }, (_, i) => restartFileName(i)),
      'every file once: none twice, none lost',
    );
    await withUi({}, async (ui) => {
      await vscode.commands.executeCommand('portal.upload.resume');
      assert.deepEqual(
        ui.told.map((t) => visible(t.text)),
        ['No upload was interrupted: there is nothing to resume.'],
      );
    });
  });
});
