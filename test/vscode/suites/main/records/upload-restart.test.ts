// The first half of "an upload interrupted by a restart": an upload of 30 files into Social Club on the shared portal
// is cut off part-way, its journal in the extension's storage, as when the window reloads mid-upload: the client
// closes under it while the portal is answering some files' last request, so some files landed without their
// outcome in the journal. The restart phase (suites/restart/upload-resume.test.ts) resumes it.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PortalClient } from '../../../../../src/api';
import { portalIdOf } from '../../../../../src/auth/portalEntry';
import { planUpload } from '../../../../../src/engine/uploads/plan';
import { runUploads, unfinishedUploads } from '../../../../../src/engine/uploads/run';
import { unitsOf } from '../../../../../src/engine/uploads/units';
import { portalApi, signInForTest } from '../../../support/extension';
import { waitFor } from '../../../../support/wait';
import { control } from '../../../support/portalHttp';
import { RESTART_FILES, RESTART_TARGET, restartFolder, restartFileName } from '../../../support/uploadRestart';

describe('Uploads: an upload interrupted by a restart (before the restart)', function () {
  this.timeout(180_000);

  it('leaves an upload of 30 files cut off part-way, its journal in the extension storage', async () => {
    const url = process.env.PORTAL_TEST_EMULATOR_URL;
    assert.ok(url, 'the runner provides the shared emulator');
    const portalId = portalIdOf(url, 'portal');
    const api = await portalApi();
    if (!api.registry.get(portalId)?.client) {
      const script = await signInForTest({ baseUrl: url, username: 'demo', password: 'demo' });
      assert.deepEqual(script.failures, []);
    }
    const folder = restartFolder();
    fs.rmSync(folder, { recursive: true, force: true });
    fs.mkdirSync(folder, { recursive: true });
    for (let i = 0; i < RESTART_FILES; i++) fs.writeFileSync(path.join(folder, restartFileName(i)), `file ${i}\n`);
    const target = { portalId, ...RESTART_TARGET, folderId: 0 };
    const plan = await planUpload(target, [folder], new Map());
    const units = unitsOf(plan, new Map());
    const cut = new PortalClient({ baseUrl: url });
    await cut.signIn({ kind: 'password', username: 'demo', password: 'demo' });
    const complete = `/v2/accounts/${RESTART_TARGET.accountId}/groups/${RESTART_TARGET.groupId}/files/upload/complete`;
    await control(url, 'POST', 'faults', { rules: [{ kind: 'slow-body', delayMs: 300, path: complete }] });
    try {
      let finished = 0;
      await runUploads(cut, plan, units, {
        storageFolder: api.testing.records.storageFolder,
        concurrency: 4,
        onProgress: () => {
          if (++finished === 12) cut.close();
        },
      });
      await waitFor(
        async () => ((await control(url, 'GET', 'stats')) as { inFlight: number }).inFlight === 0,
        'the portal has answered every request of the closed client',
      );
    } finally {
      await control(url, 'DELETE', 'faults');
    }
    const left = await unfinishedUploads(api.testing.records.storageFolder);
    assert.equal(left.length, 1, 'one upload is left unfinished');
  });
});
