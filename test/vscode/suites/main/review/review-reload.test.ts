// An access review across a reload of the window: the page comes back through the serializer (called here with a
// fresh panel, as VS Code calls it after a reload), and an apply of the review's plan that the review's window did not
// see (the plan shown again after a reload is another object) is read back from the engine's journal when the review
// is opened again, so the evidence still says what was applied.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { DemoPortal } from '../../../support/demoPortal';
import { portalJson } from '../../../support/portalHttp';
import { nodeOf, type Testing } from '../../../support/tree';
import { useReviewPortal } from '../../../support/review';
import { withUi } from '../../../support/ui';
import { waitFor } from '../../../../support/wait';
import type { ReviewPanel } from '../../../../../src/features/review/reviewPanel';
import { evidenceNames } from '../../../../../src/features/review/core/reviewFiles';
import { tempDir } from '../../../../support/tempDir';

interface ShownPlan {
  plan: { permanentDeletions: string[]; absent: Array<{ username: string }>; title?: string };
}

describe('Access review across a reload', function () {
  this.timeout(240_000);
  let p: DemoPortal;
  let t: Testing;
  const opened: ReviewPanel[] = [];

  useReviewPortal((portal, testing) => {
    p = portal;
    t = testing;
  }, opened);

  const freshPanel = () =>
    vscode.window.createWebviewPanel('portal.accessReview', 'restored', vscode.ViewColumn.One, { enableScripts: true });

  it('names a guest share as the access matrix names it: its group and the record\u2019s path', async () => {
    const acme = { kind: 'account' as const, portalId: p.portalId, accountId: 1, label: 'Acme Corporation' };
    const node = await nodeOf(acme);
    const panel = await withUi({ 'review.scope': 'The whole organisation', 'review.read.confirm': true }, async () => {
      const opened1 = (await vscode.commands.executeCommand('portal.review.start', node)) as ReviewPanel;
      opened.push(opened1);
      return opened1;
    });
    const matrix = await t.members.store.outsiders(acme, new AbortController().signal);
    const matrixGuests = matrix.rows.filter((r) => r.kind === 'guest');
    const reviewGuests = panel.session.review.rows.filter((r) => r.kind === 'guest');
    assert.equal(reviewGuests.length, matrixGuests.length, 'the same shares');
    assert.ok(matrixGuests.length > 0);
    for (const g of matrixGuests)
      assert.ok(
        reviewGuests.some((r) => r.identity === g.email && r.access.endsWith(`shared: ${g.what}`)),
        `${g.email}: ${g.what} in ${reviewGuests.map((r) => `${r.identity}: ${r.access}`).join(' | ')}`,
      );
    const contractor = reviewGuests.find((r) => r.identity === 'contractor@devshop.example');
    assert.match(contractor?.access ?? '', /shared: Engineering \/ docs\/architecture\.md$/);
    // The next test resumes this review (unfinished) as a person would.
    panel.panel.dispose();
  });

  it('brings the page back from its kept state, and reads back an apply its window did not see', async () => {
    const node = await nodeOf({ kind: 'account', portalId: p.portalId, accountId: 1 });
    // The store was read by the test before: the read is not offered again.
    const first = await withUi(
      { 'review.scope': 'The whole organisation', 'review.read.confirm': true },
      async () => {
        const panel = (await vscode.commands.executeCommand('portal.review.start', node)) as ReviewPanel;
        opened.push(panel);
        return panel;
      },
      { allUsed: false },
    );
    const { review } = first.session;
    const leaver = review.rows.find((r) => r.kind === 'member' && /^[a-z]+\.[a-z]+$/.test(r.identity));
    assert.ok(leaver);
    await first.handleMessage({ type: 'decide', keys: [leaver.key], decision: { kind: 'remove', reason: 'left' } });
    const id = first.session.id;

    // The serializer, as after a reload: a fresh panel and the state the page kept.
    first.panel.dispose();
    await waitFor(() => t.review.panel(id) === undefined, 'the page is gone');
    const revived = await t.review.revive(freshPanel(), { key: 'review', values: { portalId: p.portalId, id } });
    assert.ok(revived, 'the review came back');
    opened.push(revived);
    assert.equal(revived.session.id, id);
    assert.equal(revived.session.review.decisions.get(leaver.key)?.kind, 'remove', 'with what was decided');
    assert.equal(revived.meta().id, id, 'the page is told what to keep for the next reload');
    revived.panel.reveal(vscode.ViewColumn.One);
    await waitFor(() => revived.pageReady, 'the revived page ran and asked for its rows');
    // A state that is not a review's closes the page it came with.
    const stray = freshPanel();
    let strayClosed = false;
    stray.onDidDispose(() => (strayClosed = true));
    assert.equal(
      await t.review.revive(stray, { key: 'review', values: { portalId: p.portalId, id: '../x' } }),
      undefined,
    );
    assert.ok(strayClosed);

    // Finish: the plan goes to the Plan view.
    await withUi({ 'review.finish.confirm': true }, (ui) => revived.handleMessage({ type: 'finish' }).then(() => ui));
    const store = t.members.plan.store as unknown as { plan?: ShownPlan };
    const shown = store.plan;
    assert.ok(shown?.plan.title, 'a plan with its title is on show');
    assert.deepEqual(
      shown.plan.absent.map((a) => a.username),
      [leaver.identity],
    );
    // The window goes: the review's page with it, and the plan is shown again as another object.
    revived.panel.dispose();
    await waitFor(() => t.review.panel(id) === undefined, 'the page is gone');
    t.members.plan.store.show(
      { ...(shown.plan as never as Parameters<typeof t.members.plan.store.show>[0]) },
      { kind: 'account', portalId: p.portalId, accountId: 1, label: 'Acme Corporation' },
      undefined,
    );
    const snapshots = tempDir('review-reload-');
    await withUi(
      {
        'plan.apply.confirm': true,
        'plan.apply.typeCount': String(shown.plan.permanentDeletions.length),
        'plan.snapshot.folder': snapshots,
      },
      () => vscode.commands.executeCommand('portal.plan.apply'),
      { allUsed: false },
    );
    const gone = await portalJson(p.emu.url, p.token, 'GET', `/v3/accounts/1/members/${leaver.identity}`);
    assert.equal(gone.status, 404, 'applied');
    const files = t.review.files;
    const onDisk = (await files.list(p.portalId)).find((r) => r.head.id === id);
    assert.ok(onDisk);
    assert.equal(onDisk.head.applied, undefined, 'no open review saw that apply');

    // Opened again after the reload: the apply is read back from the journal, and the evidence says so.
    const again = await t.review.revive(freshPanel(), { key: 'review', values: { portalId: p.portalId, id } });
    assert.ok(again);
    opened.push(again);
    await t.review.caughtUp(id);
    const applied = again.session.review.head.applied;
    assert.ok(applied, 'the apply is recorded');
    assert.deepEqual([applied.done, applied.failed], [1, 0]);
    assert.ok(fs.existsSync(applied.report), `the report ${applied.report} exists`);
    const names = evidenceNames(id);
    const summary = fs.readFileSync(path.join(files.folderOf(again.session.review.head), names.summary), 'utf8');
    assert.match(summary, /Applied .*: 1 done, 0 failed or not started\. Action report: .*apply-/);
    assert.deepEqual(await files.verify(again.session.review.head), [], 'the digest matches the new summary');
  });
});
