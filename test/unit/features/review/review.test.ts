// An access review's model against real data: rows built from an access store the matrix read filled from the
// emulator, with its guest shares and invitations; decisions that fit their rows (and only those), bulk decisions over
// a filter, decisions kept on disk as they are made and read back, the evidence (every row, the decision, who and
// when; guests and invitations "to be carried out on the portal") and its digest, which a later edit no longer
// matches; and the plan the Remove and Lower decisions make.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { GuestShare, Invitation, PortalClient } from '../../../../src/api';
import { AccessMatrix } from '../../../../src/features/members/access/store/accessMatrix';
import { Review, REVIEW_VERSION, type ReviewHead } from '../../../../src/features/review/core/model';
import { evidenceCsv } from '../../../../src/features/review/core/evidence';
import { ReviewFiles, evidenceNames } from '../../../../src/features/review/core/reviewFiles';
import { planReview } from '../../../../src/features/review/core/reviewPlan';
import { guestRows, invitationRows, memberRows } from '../../../../src/features/review/core/rows';
import type { AccessView } from '../../../../src/features/contracts';
import { accountIdOf, demoClient, emulator, readWholeMatrix, type Emulator } from '../helpers';
import { tempDir } from '../../../support/tempDir';

const NOW = Date.now();
const KEEP = { kind: 'keep', reason: 'still needed' } as const;

void describe('access review', () => {
  let emu: Emulator;
  let client: PortalClient;
  let acme: number;
  let matrix: AccessMatrix;
  let shares: GuestShare[];
  let invitations: Invitation[];
  let storage: string;

  before(async () => {
    emu = await emulator();
    client = await demoClient(emu);
    acme = await accountIdOf(client, 'acme');
    storage = tempDir('review-');
    matrix = await readWholeMatrix(client, acme, storage);
    const s = await client.observed.guestShares();
    const i = await client.observed.invitations(acme);
    assert.ok(s.kind === 'offered' && i.kind === 'offered');
    shares = s.value;
    invitations = i.value;
  });
  after(async () => {
    client.close();
    await emu.stop();
  });

  const view = (): AccessView => matrix as unknown as AccessView;
  const head = (scope?: { name: string; label: string }): ReviewHead => ({
    version: REVIEW_VERSION,
    id: `${acme}-${NOW}-abcd`,
    portalId: 'http://emulator|portal',
    portalLabel: 'emulator',
    accountId: acme,
    accountLabel: 'Acme Corporation',
    scope,
    reviewer: 'demo',
    startedAt: NOW,
    refused: {},
    groups: [],
  });
  const newReview = (scope?: { name: string; label: string }): Review =>
    new Review(head(scope), [
      ...memberRows(view(), scope?.name, (n) => n),
      ...(scope
        ? []
        : guestRows(
            shares.map((share) => ({ share, what: 'as placed', group: undefined, path: undefined })),
            NOW,
          )),
      ...(scope ? [] : invitationRows(invitations, NOW, (id) => `group ${id}`)),
    ]);

  void it('has a row per member of the store, per guest share and per pending invitation', () => {
    const r = newReview();
    const kinds = (k: string) => r.rows.filter((x) => x.kind === k).length;
    assert.equal(kinds('member'), matrix.size);
    assert.equal(kinds('guest'), shares.length);
    assert.equal(kinds('invitation'), 2, 'the accepted invitation is no access to review');
    assert.equal(new Set(r.rows.map((x) => x.key)).size, r.rows.length, 'every key is unique');
    const member = r.row('m:member');
    assert.match(
      member?.access ?? '',
      /^Organisation: Member; engineering: Standard; marketing: Basic; social: Administrator$/,
    );
    assert.equal(member?.levels?.engineering, 4);
  });

  void it('takes only decisions that fit the row, and records who decided and when', () => {
    const r = newReview();
    const guest = r.rows.find((x) => x.kind === 'guest')?.key ?? '';
    assert.equal(
      r.decide([guest], { kind: 'remove', reason: '' }, 'demo', NOW).keys.length,
      0,
      'a guest is not removed',
    );
    assert.equal(r.decide(['m:member'], { kind: 'expire', reason: '' }, 'demo', NOW).keys.length, 0);
    const lowered = r.decide(['m:member'], { kind: 'lower', level: 1, reason: 'least privilege' }, 'demo', NOW);
    assert.deepEqual(lowered.keys, ['m:member'], 'member holds Standard and Administrator: lowering fits');
    assert.deepEqual(r.decisions.get('m:member'), {
      kind: 'lower',
      level: 1,
      reason: 'least privilege',
      by: 'demo',
      at: NOW,
    });
    const scoped = newReview({ name: 'marketing', label: 'Marketing' });
    assert.equal(
      scoped.decide(['m:member'], { kind: 'lower', level: 1, reason: '' }, 'demo', NOW).keys.length,
      0,
      'in Marketing the member is Basic already',
    );
    assert.equal(r.decide(['m:nobody'], KEEP, 'demo', NOW).keys.length, 0, 'an unknown row is not decided');
  });

  void it('decides in bulk over the rows a filter shows: guests with no expiry get Expire share', () => {
    const r = newReview();
    const batch = r.decideShown({ noExpiry: true }, { kind: 'expire', reason: 'no end date' }, 'demo', NOW);
    const emails = batch.keys.map((k) => r.row(k)?.identity).sort();
    assert.deepEqual(emails, ['auditor@kpmg-audit.example', 'contractor@devshop.example']);
    const canEdit = r.shown({ canEdit: true }, NOW).map((k) => r.row(k)?.identity);
    assert.deepEqual(canEdit, ['contractor@devshop.example']);
    const members = r.decideShown({ kind: 'member' }, { kind: 'expire', reason: '' }, 'demo', NOW);
    assert.equal(members.keys.length, 0, 'a decision that fits no shown row decides nothing');
    assert.equal(r.counts().guest.expire, 2);
    assert.equal(r.counts().guest.undecided, shares.length - 2);
  });

  void it('keeps each decision on disk as it is made, and a reload reads them back (a torn last line skipped)', async () => {
    const files = new ReviewFiles(storage);
    const r = newReview();
    await files.save(r);
    await files.append(r, r.decide(['m:member'], { kind: 'remove', reason: 'left' }, 'demo', NOW));
    await files.append(r, r.decideShown({ kind: 'invitation' }, { kind: 'withdraw', reason: 'stale' }, 'demo', NOW));
    const folder = files.folderOf(r.head);
    fs.appendFileSync(path.join(folder, `${r.head.id}.decisions.jsonl`), '{"keys":["m:demo"],"decis');
    const back = await files.unfinished(r.head.portalId, acme, undefined);
    assert.ok(back);
    assert.deepEqual([...back.decisions.entries()].sort(), [...r.decisions.entries()].sort());
    assert.equal(fs.statSync(path.join(folder, `${r.head.id}.json`)).mode & 0o777, 0o600);
    assert.equal(fs.statSync(folder).mode & 0o777, 0o700);
  });

  void it('writes evidence with every row and a digest that a later edit no longer matches', async () => {
    const files = new ReviewFiles(storage);
    const r = newReview();
    r.decide(['m:member'], { kind: 'remove', reason: 'left the company' }, 'demo', NOW);
    r.decideShown({ noExpiry: true }, { kind: 'expire', reason: 'no end date' }, 'demo', NOW);
    r.head = { ...r.head, id: `${acme}-${NOW}-ef01`, finishedAt: NOW + 1000, planned: 1 };
    assert.equal(r.decide(['m:demo'], KEEP, 'demo', NOW).keys.length, 0, 'a finished review takes no decision');
    const { digest, files: written } = await files.writeEvidence(r);
    r.head = { ...r.head, evidenceDigest: digest };
    const names = evidenceNames(r.head.id);
    const csv = fs.readFileSync(path.join(written.folder, names.csv), 'utf8');
    const lines = csv
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    assert.equal(lines.length, r.rows.length + 1, 'a header and every row');
    assert.ok(lines.some((l) => /^Member,member,.*,Remove from the organisation,left the company,demo,/.test(l)));
    assert.ok(
      lines.some(
        (l) => l.startsWith('Guest,contractor@devshop.example,') && l.endsWith(',to be carried out on the portal'),
      ),
    );
    const summary = fs.readFileSync(path.join(written.folder, names.summary), 'utf8');
    assert.match(summary, /\| Guests \| 0 \| 0 \| 0 \| 2 \| 0 \| 2 \|/);
    assert.match(summary, /2 guest shares to expire and 0 invitations to withdraw: to be carried out on the portal/);
    assert.match(summary, /Not applied yet/);
    for (const n of Object.values(names))
      assert.equal(fs.statSync(path.join(written.folder, n)).mode & 0o777, 0o600, n);
    assert.deepEqual(await files.verify(r.head), []);
    fs.writeFileSync(path.join(written.folder, names.csv), csv.replace('left the company', 'kept'));
    assert.deepEqual(await files.verify(r.head), [names.csv]);
    const manifest = path.join(written.folder, names.manifest);
    fs.writeFileSync(manifest, fs.readFileSync(manifest, 'utf8').replace(/"sha256": "[0-9a-f]+"/, '"sha256": "0"'));
    assert.deepEqual(await files.verify(r.head), ['manifest']);
  });

  void it('makes a formula in server text inert in the CSV', () => {
    const r = new Review(head(), [
      {
        key: 'g:x',
        kind: 'guest',
        identity: '=HYPERLINK("http://x")',
        name: '',
        access: '+1',
        detail: '',
        readAt: NOW,
      },
    ]);
    const line = evidenceCsv(r).split('\r\n')[1] ?? '';
    assert.ok(line.startsWith(`Guest,"'=HYPERLINK(""http://x"")",,'+1,`), line);
  });

  void it('plans the Remove and Lower decisions from the members as read now', async () => {
    const r = newReview();
    r.decide(['m:member'], { kind: 'lower', level: 1, reason: '' }, 'demo', NOW);
    const other = r.rows.find((x) => x.kind === 'member' && x.identity !== 'member' && x.identity !== 'demo');
    r.decide([other?.key ?? ''], { kind: 'remove', reason: '' }, 'demo', NOW);
    const { plan, gone } = await planReview(client, acme, r.memberChanges(), undefined, { title: 't', concurrency: 4 });
    assert.deepEqual(gone, []);
    assert.deepEqual(
      plan.absent.map((a) => a.username),
      [other?.identity],
    );
    assert.deepEqual(plan.groupChanges.map((c) => [c.username, c.groupName, c.before, c.after]).sort(), [
      ['member', 'engineering', 4, 1],
      ['member', 'social', 16, 1],
    ]);
    const scoped = newReview({ name: 'engineering', label: 'Engineering' });
    scoped.decide(['m:member'], { kind: 'remove', reason: '' }, 'demo', NOW);
    const s = await planReview(client, acme, scoped.memberChanges(), 'engineering', { title: 't', concurrency: 4 });
    assert.deepEqual(s.plan.absent, [], 'removed from the group, not the organisation');
    assert.deepEqual(
      s.plan.groupChanges.map((c) => [c.groupName, c.before, c.after]),
      [['engineering', 4, 0]],
    );
  });
});
