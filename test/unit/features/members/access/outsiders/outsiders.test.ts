// Guests, pending invitations and sign-ins as the access matrix reads, keeps and shows them, against the emulator on
// both profiles: one request a page within the budget, kept in the access store and read back, each refusal kept
// as the answer (said once) while the rest works.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { outsiderRows } from '../../../../../../src/features/members/access/outsiders/outsiders';
import {
  lastSignIn,
  neverSignedIn,
  outsidersNote,
  signInNote,
  visibleOutsiders,
} from '../../../../../../src/features/members/access/outsiders/outsiders.protocol';
import { readOutsiders, readSignIns } from '../../../../../../src/features/members/access/outsiders/outsidersRead';
import { AccessStoreFile, storeFilePath } from '../../../../../../src/features/members/access/store/accessStoreFile';
import { matrixCsvLines } from '../../../../../../src/features/members/access/matrixCsv';
import { accountId, emulator, passwordClient } from '../../../../api/helpers';
import { tempDir } from '../../../../../support/tempDir';
import { csvHeaders } from '../csvHeaders';

const HEADERS = { ...csvHeaders('Group permission'), signIn: 'Last sign-in' };

const DAY = 86_400_000;

void describe("the access matrix's outsiders and sign-ins (default profile)", () => {
  void test("guests placed in the organisation, by their record's path; invitations as Invited; sign-ins", async () => {
    const emu = await emulator();
    const t = await passwordClient(emu);
    const folder = tempDir('portal-outsiders-');
    try {
      const acme = await accountId(t.client, 'acme');
      const signal = new AbortController().signal;
      emu.resetStats();
      const record = await readOutsiders(t.client, acme, signal);
      const signIns = await readSignIns(t.client, acme, signal);
      const byRoute = emu.stats().byRoute;
      assert.equal(byRoute['GET /v3/shares'], 1);
      assert.equal(byRoute['GET /v3/accounts/:account/invites'], 1);
      assert.equal(byRoute['GET /v3/audit'], 1);

      // Kept in the access store like member reads, and read back the same.
      const store = new AccessStoreFile(storeFilePath(folder, 'p', acme));
      store.outsiders(record);
      store.signIns(signIns);
      const loaded = store.load();
      await store.compact(loaded);
      const again = store.load();
      assert.deepEqual(again.outsiders, record);
      assert.deepEqual(again.signIns, signIns);

      const { rows, elsewhere } = outsiderRows(again.outsiders);
      assert.equal(elsewhere, 0);
      const guests = rows.filter((r) => r.kind === 'guest');
      const invited = rows.filter((r) => r.kind === 'invited');
      assert.equal(guests.length, 4);
      assert.deepEqual(invited.map((r) => r.email).sort(), ['board.observer@acme.example', 'new.starter@acme.example']);
      const contractor = guests.find((g) => g.email === 'contractor@devshop.example');
      assert.equal(contractor?.what, 'Engineering / docs/architecture.md');
      assert.equal(contractor?.permission, 'View and edit');
      assert.equal(contractor?.canEdit, true);
      assert.deepEqual(contractor?.groups, ['engineering']);
      // An invite's groups in the level words, and a Group creator mask is power, as a plan names it.
      const observer = invited.find((r) => r.email === 'board.observer@acme.example');
      assert.equal(observer?.permission, 'Group creator');
      assert.equal(observer?.power, true);
      const starter = invited.find((r) => r.email === 'new.starter@acme.example');
      assert.match(starter?.what ?? '', /Engineering: Standard/);
      assert.equal(starter?.power, false);

      const now = Date.now();
      const emails = (v: Parameters<typeof visibleOutsiders>[1], group?: string) =>
        visibleOutsiders(rows, v, now, group).map((r) => r.email);
      assert.deepEqual(emails({ noExpiry: true }), ['auditor@kpmg-audit.example', 'contractor@devshop.example']);
      assert.deepEqual(emails({ expired: true }), ['agency@brightside.example']);
      // The contractor's share is 28 days younger than the auditor's.
      const olderDays = Math.floor((now - (contractor?.created ?? 0)) / DAY) + 1;
      assert.deepEqual(emails({ noPassword: true }), ['auditor@kpmg-audit.example', 'contractor@devshop.example']);
      assert.deepEqual(emails({ noPassword: true, olderDays }), ['auditor@kpmg-audit.example']);
      assert.deepEqual(emails({ canEdit: true }), ['contractor@devshop.example']);
      assert.deepEqual(emails({ kind: 'invited' }, 'engineering'), ['new.starter@acme.example']);
      assert.equal(outsidersNote(record), '');

      assert.equal(signIns.kind, 'read');
      assert.equal(signInNote(signIns), '');
      assert.ok((lastSignIn(signIns, 'DEMO') ?? 0) > now - 5 * DAY);
      assert.equal(lastSignIn(signIns, 'demo-2fa'), -1);
      assert.equal(neverSignedIn(signIns, 'demo-2fa'), true);
      assert.equal(neverSignedIn(signIns, 'member'), false);

      // The CSV: the page's filters choose the guests and invitations written after the members.
      again.upsert({ username: 'demo', name: 'Dana', email: '', tags: [], permission: 16, lastActive: now, flags: 0 });
      again.upsert({ username: 'demo-2fa', name: 'Ed', email: '', tags: [], permission: 1, lastActive: -1, flags: 0 });
      const csv = [...matrixCsvLines(again, {}, { headers: HEADERS, now, others: { noExpiry: true } })].join('');
      const lines = csv
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n');
      assert.match(lines[0] ?? '', /,Last sign-in$/);
      assert.match(lines.find((l) => l.startsWith('demo-2fa,')) ?? '', /,none since \d{4}-\d{2}-\d{2}$/);
      assert.ok(
        lines.includes(
          'Guest,contractor@devshop.example,Engineering / docs/architecture.md,View and edit,yes,,' +
            `${new Date(contractor?.created ?? 0).toISOString().slice(0, 10)},no expiry,no`,
        ),
        lines.join('\n'),
      );
      assert.equal(lines.filter((l) => l.startsWith('Guest,')).length, 2);
      assert.equal(lines.filter((l) => l.startsWith('Invited,')).length, 0);
      const never = [...matrixCsvLines(again, {}, { headers: HEADERS, now, others: { neverSignedIn: true } })].join('');
      const neverLines = never.trim().split('\r\n');
      assert.deepEqual(
        neverLines.filter((l) => /^demo/.test(l)).map((l) => l.split(',')[0]),
        ['demo-2fa'],
      );
      assert.equal(
        neverLines.filter((l) => l.startsWith('Invited,')).length,
        2,
        'a pending invitation never signed in',
      );
      assert.equal(neverLines.filter((l) => l.startsWith('Guest,')).length, 0);
      // Without the page's filters (an export made elsewhere), the members' columns are as they were.
      const plain = [...matrixCsvLines(again, {}, { headers: HEADERS, now })].join('');
      assert.doesNotMatch(plain, /Last sign-in|Guest,|Invited,/);
    } finally {
      t.client.close();
      await emu.stop();
      await rm(folder, { recursive: true, force: true });
    }
  });

  void test('without the capabilities (Globex withholds them): refusals kept and said once; the audit too', async () => {
    const emu = await emulator();
    const t = await passwordClient(emu);
    try {
      const globex = await accountId(t.client, 'globex');
      const signal = new AbortController().signal;
      const record = await readOutsiders(t.client, globex, signal);
      assert.equal(record.invitations, 'capability');
      const signIns = await readSignIns(t.client, globex, signal);
      assert.deepEqual(
        { kind: signIns.kind, reason: signIns.kind === 'refused' && signIns.reason },
        {
          kind: 'refused',
          reason: 'capability',
        },
      );
      assert.match(signInNote(signIns), /capability.*last active is shown instead/);
      assert.equal(lastSignIn(signIns, 'demo'), undefined);
      assert.equal(neverSignedIn(signIns, 'demo'), false);
    } finally {
      t.client.close();
      await emu.stop();
    }
  });

  void test('an audit answer not understood says so, and no member is taken for never signed in', async () => {
    const emu = await emulator();
    const t = await passwordClient(emu);
    try {
      const acme = await accountId(t.client, 'acme');
      emu.setFaults([{ kind: 'malformed-json', path: '/v3/audit', count: 1 }]);
      const signIns = await readSignIns(t.client, acme, new AbortController().signal);
      assert.equal(signIns.kind, 'not-understood');
      assert.match(signInNote(signIns), /not understood.*last active is shown instead/);
      assert.equal(neverSignedIn(signIns, 'demo-2fa'), false);
    } finally {
      t.client.close();
      await emu.stop();
    }
  });
});

void describe("the access matrix's outsiders on the literal profile", () => {
  void test('every observed endpoint answers 404: one plain sentence, no rows, nothing thrown', async () => {
    const emu = await emulator({ profile: 'literal' });
    const t = await passwordClient(emu);
    try {
      const acme = await accountId(t.client, 'acme');
      const signal = new AbortController().signal;
      const record = await readOutsiders(t.client, acme, signal);
      assert.equal(record.shares, 'absent');
      assert.equal(record.invitations, 'absent');
      assert.equal(outsidersNote(record), 'Guests and invitations are not shown: this portal does not offer them.');
      assert.deepEqual(outsiderRows(record).rows, []);
      const signIns = await readSignIns(t.client, acme, signal);
      assert.equal(signIns.kind, 'refused');
      assert.match(signInNote(signIns), /does not offer them/);
    } finally {
      t.client.close();
      await emu.stop();
    }
  });
});
