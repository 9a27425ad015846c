// The second half of "an access matrix read interrupted by a restart" (the first: the last suite of
// suites/main/members/access.test.ts). The read of Acme's matrix was cancelled halfway, then the extension host went
// down. This start knows only what the journal in the extension's storage holds: reopening the matrix must read the
// members not read before, and only them, so every member is read exactly once over both halves (the emulator counts).
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { takeAccessRestartRecord, ACCESS_RESTART } from '../../support/accessRestart';
import { portalApi } from '../../support/extension';
import { MemberReadCounter } from '../../support/memberReads';
import { withUi } from '../../support/ui';

interface SessionLike {
  readonly matrix: { readonly size: number; readCount(): number; row(u: string): unknown[] | undefined };
  read(ui: () => unknown): Promise<{ outcome: string; reads: number } | undefined>;
}

/** Index of the read time in a row as the page gets it (shared/accessRow.ts). */
const READ_AT = 9;

describe(`Members: ${ACCESS_RESTART} (after the restart)`, function () {
  this.timeout(180_000);

  it('reopening the matrix reads only the members not read before the restart: each member once in all', async () => {
    const url = process.env.PORTAL_TEST_EMULATOR_URL;
    assert.ok(url, 'the runner provides the shared emulator');
    const before = takeAccessRestartRecord();
    const readBefore = before.members.filter((u) => (before.reads[u] ?? 0) > 0);
    assert.ok(
      readBefore.length > 0 && readBefore.length < before.members.length,
      `${readBefore.length} of ${before.members.length} members were read before the restart`,
    );
    const t = (await portalApi()).testing;
    const acme = {
      kind: 'account' as const,
      portalId: before.portalId,
      accountId: before.accountId,
      label: 'Acme Corporation',
    };
    const session = t.members.access.sessions.get(acme) as unknown as SessionLike;
    // What this start knows came from the journal on disk: exactly the members the emulator answered.
    assert.deepEqual(
      before.members.filter((u) => ((session.matrix.row(u)?.[READ_AT] as number | undefined) ?? 0) > 0),
      readBefore,
      'the journal holds every read made before the restart',
    );

    const counter = await MemberReadCounter.start(url, before.accountId, before.members);
    try {
      t.members.show(acme);
      await withUi({}, async (ui) => {
        const panel = (await vscode.commands.executeCommand('portal.access.openMatrix')) as { session: SessionLike };
        assert.equal(panel.session, session, 'the matrix opens on the session loaded from the journal');
        const result = await panel.session.read(() => ui);
        assert.equal(result?.outcome, 'done');
        assert.equal(result?.reads, before.members.length - readBefore.length, 'only the members not read before');
      });
      assert.equal(session.matrix.size, before.members.length);
      assert.equal(session.matrix.readCount(), before.members.length, 'the matrix is complete');
      const after = await counter.counts();
      const twice = before.members.filter((u) => (before.reads[u] ?? 0) + (after.get(u) ?? 0) !== 1);
      assert.deepEqual(
        twice.map((u) => `${u}: ${before.reads[u] ?? 0} + ${after.get(u) ?? 0}`),
        [],
        'every member read exactly once over both halves',
      );
    } finally {
      await counter.stop();
      t.members.access.panels.dispose();
    }
  });
});
