// Access Review… against the emulator, through the page's own messages: a review of Acme offers to read the
// organisation first; Remove for two members and Expire share for the guests with no expiry; the page disposed and the
// review opened again resumes those decisions; Finish Review shows exactly the two removals in the Plan view; applied
// there, the portal has them removed and the evidence (every row, its digest) says what was applied; an edit of the
// evidence is said when the review is reopened from Show Access Reviews…. On a portal that keeps to the letter of the
// spec, guests and invitations are said to be absent once, plainly, and the members are reviewed all the same.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { isLiteral, PROFILES, type DemoPortal } from '../../../support/demoPortal';
import { portalJson } from '../../../support/portalHttp';
import { nodeOf, type Testing } from '../../../support/tree';
import { useReviewPortal } from '../../../support/review';
import { visible, withUi } from '../../../support/ui';
import { waitFor } from '../../../../support/wait';
import type { ReviewPanel } from '../../../../../src/features/review/reviewPanel';
import { evidenceNames } from '../../../../../src/features/review/core/reviewFiles';
import { tempDir } from '../../../../support/tempDir';

const WHOLE = 'The whole organisation';
const MEMBER_READ = 'GET /v2/accounts/:account/members/:username';

for (const profile of PROFILES)
  describe(`Access review (${profile})`, function () {
    this.timeout(240_000);
    const literal = isLiteral(profile);
    let p: DemoPortal;
    let t: Testing;
    const opened: ReviewPanel[] = [];
    const acmeNode = () => nodeOf({ kind: 'account', portalId: p.portalId, accountId: 1 });

    useReviewPortal(
      (portal, testing) => {
        p = portal;
        t = testing;
      },
      opened,
      { profile },
    );

    /** Access Review… on Acme's row, the whole organisation. */
    async function start(answers: Record<string, unknown> = {}) {
      const node = await acmeNode();
      return withUi({ 'review.scope': WHOLE, ...answers } as never, async (ui) => {
        const panel = (await vscode.commands.executeCommand('portal.review.start', node)) as ReviewPanel;
        assert.ok(panel, 'the review opened');
        opened.push(panel);
        return { panel, ui };
      });
    }

    it('reviews Acme: decides, resumes after the page is gone, finishes into a plan of exactly the two removals, applied', async () => {
      p.emu.resetStats();
      const first = await start({ 'review.read.confirm': true });
      assert.ok(
        first.ui.asked.some((q) => q.id === 'review.read.confirm'),
        'a never-read organisation is offered a read first',
      );
      assert.ok((p.emu.stats().byRoute[MEMBER_READ] ?? 0) > 0, 'the read went through the access store');
      const told = first.ui.told.map((x) => visible(x.text));
      assert.deepEqual(
        told,
        literal ? ['Guests and invitations are not part of this review: this portal does not offer them.'] : [],
      );
      first.panel.panel.reveal(vscode.ViewColumn.One);
      await waitFor(() => first.panel.pageReady, 'the page ran and asked for its rows');
      const { review } = first.panel.session;
      const members = review.rows.filter((r) => r.kind === 'member');
      assert.equal(
        members.length,
        t.members.store.view({ kind: 'account', portalId: p.portalId, accountId: 1, label: 'Acme Corporation' }).size,
      );
      assert.equal(review.rows.filter((r) => r.kind === 'guest').length, literal ? 0 : 4);
      assert.equal(review.rows.filter((r) => r.kind === 'invitation').length, literal ? 0 : 2);
      const leavers = members.filter((r) => /^[a-z]+\.[a-z]+$/.test(r.identity)).slice(0, 2);
      assert.equal(leavers.length, 2);
      const panel = first.panel;
      await panel.handleMessage({
        type: 'decide',
        keys: leavers.map((r) => r.key),
        decision: { kind: 'remove', reason: 'left the company' },
      });
      // A decision that does not fit its row, and a message that is no message, change nothing.
      await panel.handleMessage({ type: 'decide', keys: [leavers[0]?.key], decision: { kind: 'expire', reason: '' } });
      await panel.handleMessage({ type: 'decide', keys: 'all', decision: { kind: 'keep', reason: '' } });
      if (!literal)
        await panel.handleMessage({
          type: 'decideShown',
          filter: { noExpiry: true },
          decision: { kind: 'expire', reason: 'no end date' },
        });
      const decided = new Map(review.decisions);
      assert.equal(decided.size, literal ? 2 : 4);
      assert.equal(decided.get(leavers[0]?.key ?? '')?.kind, 'remove');
      assert.equal(decided.get(leavers[0]?.key ?? '')?.by, 'demo');

      // The page goes (its tab closed); the review opened again resumes where it was.
      panel.panel.dispose();
      const again = await start();
      assert.notEqual(again.panel, panel);
      assert.equal(again.panel.session.id, panel.session.id, 'the unfinished review is resumed');
      assert.ok(
        again.ui.told.some((x) => /^Resumed the unfinished access review of Acme Corporation/.test(visible(x.text))),
      );
      assert.deepEqual(
        [...again.panel.session.review.decisions.entries()].map(([k, d]) => [k, d.kind, d.reason]).sort(),
        [...decided.entries()].map(([k, d]) => [k, d.kind, d.reason]).sort(),
      );

      // Finish: the plan on show holds exactly the two removals.
      await withUi({ 'review.finish.confirm': true }, (ui) =>
        again.panel.handleMessage({ type: 'finish' }).then(() => ui),
      );
      const shown = (
        t.members.plan.store as unknown as {
          plan?: {
            plan: {
              permanentDeletions: string[];
              absent: Array<{ username: string; action: string }>;
              groupChanges: unknown[];
              fieldChanges: unknown[];
            };
          };
        }
      ).plan;
      assert.ok(shown, 'the plan is on show');
      assert.deepEqual(
        shown.plan.absent.map((a) => `${a.username}:${a.action}`).sort(),
        leavers.map((r) => `${r.identity}:remove`).sort(),
      );
      assert.deepEqual([shown.plan.groupChanges.length, shown.plan.fieldChanges.length], [0, 0]);
      const head = again.panel.session.review.head;
      assert.ok(head.finishedAt !== undefined && head.evidenceDigest, 'finished, its evidence digested');
      for (const r of leavers) {
        const still = await portalJson(p.emu.url, p.token, 'GET', `/v3/accounts/1/members/${r.identity}`);
        assert.equal(still.status, 200, 'nothing is sent before the Plan view applies');
      }

      // Applied in the Plan view: the portal has them removed, and the evidence says what was applied.
      const snapshots = tempDir('review-snapshots-');
      const applyUi = await withUi(
        {
          'plan.apply.confirm': true,
          // Those in no other organisation are deleted for good: confirmed by typing how many.
          'plan.apply.typeCount': String(shown.plan.permanentDeletions.length),
          'plan.snapshot.folder': snapshots,
        },
        (ui) => vscode.commands.executeCommand('portal.plan.apply').then(() => ui),
        { allUsed: false },
      );
      const said = [...applyUi.questions, ...applyUi.told.map((x) => visible(x.text))].join(' | ');
      for (const r of leavers) {
        const gone = await portalJson(p.emu.url, p.token, 'GET', `/v3/accounts/1/members/${r.identity}`);
        assert.equal(gone.status, 404, `${r.identity} removed (${said})`);
      }
      // The apply is on the head before its evidence is written again; the new digest comes last.
      await waitFor(() => {
        const now = again.panel.session.review.head;
        return now.applied !== undefined && now.evidenceDigest !== head.evidenceDigest;
      }, 'the review records the apply and digests its evidence again');
      const files = t.review.files;
      const folder = files.folderOf(head);
      const names = evidenceNames(head.id);
      const csv = fs.readFileSync(path.join(folder, names.csv), 'utf8');
      assert.equal(csv.trimEnd().split('\r\n').length, again.panel.session.review.rows.length + 1, 'every row');
      const summary = fs.readFileSync(path.join(folder, names.summary), 'utf8');
      assert.match(summary, /Applied .*: 2 done, 0 failed or not started\. Action report: .*apply-/);
      if (!literal) assert.match(summary, /2 guest shares to expire .*: to be carried out on the portal/);
      else assert.match(summary, /Guests: not reviewed, this portal does not offer them\./);
      assert.deepEqual(await files.verify(again.panel.session.review.head), [], 'the digest matches the new summary');
      for (const n of Object.values(names)) assert.equal(fs.statSync(path.join(folder, n)).mode & 0o777, 0o600, n);

      // An edit of the evidence is said when the review is reopened.
      fs.writeFileSync(path.join(folder, names.csv), csv.replace('left the company', 'was never here'));
      again.panel.panel.dispose();
      const reopened = await withUi(
        { 'review.list': (v: { head: { id: string } }) => v.head.id === head.id },
        async (ui) => {
          const shownAgain = (await vscode.commands.executeCommand('portal.review.show')) as ReviewPanel;
          opened.push(shownAgain);
          return { panel: shownAgain, told: ui.told.map((x) => visible(x.text)) };
        },
      );
      assert.ok(
        reopened.told.some((x) => x.includes('no longer matches the digest') && x.includes(names.csv)),
        reopened.told.join(' | '),
      );
      assert.equal(reopened.panel.meta().readOnly, true);
      assert.ok(reopened.panel.meta().notes.some((n) => n.includes('no longer matches')));
    });
  });
