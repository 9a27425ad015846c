// The access matrix inside VS Code: opened from the Members view and from a group's row in the Explorer, filled by
// one v2 read per member, exported as CSV, and a read stopped halfway that a new session, loaded from the journal alone,
// finishes without reading any member twice (counted by the emulator). The same across a real restart of the extension
// host: the last suite here is its first half, suites/restart/matrix-resume.test.ts the second.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { PROFILES, startDemoPortal, stopDemoPortal, type DemoPortal } from '../../../support/demoPortal';
import { portalIdOf } from '../../../../../src/auth/portalEntry';
import { portalApi, signInForTest } from '../../../support/extension';
import { MemberReadCounter } from '../../../support/memberReads';
import { ACCESS_RESTART, dropAccessRestartRecord, writeAccessRestartRecord } from '../../../support/accessRestart';
import { passwordToken, portalJson } from '../../../support/portalHttp';
import { features, nodeOf, type Testing } from '../../../support/tree';
import { waitFor } from '../../../../support/wait';
import { DISMISS, withUi } from '../../../support/ui';
import { tempDir } from '../../../../support/tempDir';

const MEMBER_READ = 'GET /v2/accounts/:account/members/:username';
/** Index of the read time in a row as the page gets it (shared/accessRow.ts). */
const READ_AT = 9;

interface MatrixPanelLike {
  readonly session: {
    readonly matrix: {
      readonly size: number;
      readCount(): number;
      row(u: string): unknown[] | undefined;
      columnOf(name: string): number | undefined;
    };
    read(ui: () => unknown): Promise<{ outcome: string; reads: number } | undefined>;
    cancel(): void;
    onRow(listener: (row: unknown[]) => void): vscode.Disposable;
  };
  readonly currentView: { group?: number };
  readonly panel: vscode.WebviewPanel;
  onDidPost(listener: (m: { type: string; [k: string]: unknown }) => void): vscode.Disposable;
  exportCsv(view: object): Promise<number | undefined>;
  dispose(): void;
}

function levelIn(row: unknown[] | undefined, column: number | undefined): number {
  const cells = (row?.[8] as number[] | undefined) ?? [];
  for (let i = 0; i + 1 < cells.length; i += 2) if (cells[i] === column) return cells[i + 1] ?? 0;
  return 0;
}

for (const profile of PROFILES)
  describe(`Members: access matrix (${profile})`, function () {
    this.timeout(180_000);
    let p: DemoPortal;
    let t: Testing;
    const account = (accountId: number, label: string) => ({
      kind: 'account' as const,
      portalId: p.portalId,
      accountId,
      label,
    });
    const memberReads = () => p.emu.stats().byRoute[MEMBER_READ] ?? 0;
    const totalOf = async (accountId: number): Promise<number> => {
      const res = await portalJson<{ totalResults: number }>(
        p.emu.url,
        p.token,
        'GET',
        `/v3/accounts/${accountId}/members?size=1`,
      );
      return res.body.totalResults;
    };

    before(async () => {
      p = await startDemoPortal({ profile });
      t = await features();
    });
    after(async () => {
      await vscode.workspace.getConfiguration('portal').update('maxConcurrentRequests', undefined, true);
      // Panels of this portal would outlive its emulator: close them, and the plan this suite put on show.
      t.members.access.panels.dispose();
      t.members.plan.store.clear();
      await t.members.access.sessions.forget();
      await stopDemoPortal(p);
    });
    afterEach(() => p.emu.clearFaults());

    it("opens from the Members view, reads each member once, and every cell is the member's group permission", async () => {
      const members = await totalOf(1);
      t.members.show(account(1, 'Acme Corporation'));
      p.emu.resetStats();
      await withUi({}, async (ui) => {
        const panel = (await vscode.commands.executeCommand('portal.access.openMatrix')) as MatrixPanelLike;
        let rowsPosted = 0;
        const sub = panel.onDidPost((m) => {
          if (m.type === 'rows') rowsPosted += (m.rows as unknown[]).length;
        });
        try {
          const result = await panel.session.read(() => ui);
          assert.equal(result?.outcome, 'done');
          const matrix = panel.session.matrix;
          assert.equal(matrix.size, members);
          assert.equal(matrix.readCount(), members);
          assert.equal(memberReads(), members, 'one v2 read per member');
          const row = matrix.row('member');
          // The seed's `member`: engineering 4 (Standard), marketing 1 (Basic), social 16 (Admin).
          assert.deepEqual(
            ['engineering', 'marketing', 'social', 'handbook'].map((g) => levelIn(row, matrix.columnOf(g))),
            [2, 1, 3, 0],
          );
          // The page gets the rows once it is on screen (a hidden webview loads nothing) and says it is ready.
          panel.panel.reveal(vscode.ViewColumn.One);
          await waitFor(() => rowsPosted >= members, `the page got ${members} rows (${rowsPosted})`);
        } finally {
          sub.dispose();
        }
      });
    });

    it('Show Members of Group from the group row lists that group, and the export writes its members and levels', async () => {
      const node = await nodeOf({ kind: 'group', portalId: p.portalId, accountId: 1, groupId: 101 });
      const file = path.join(tempDir('access-'), 'engineering.csv');
      await withUi({ 'access.export.file': file }, async (ui) => {
        const panel = (await vscode.commands.executeCommand('portal.group.showMembers', node)) as MatrixPanelLike;
        await panel.session.read(() => ui);
        const column = panel.session.matrix.columnOf('engineering');
        assert.notEqual(column, undefined);
        assert.equal(panel.currentView.group, column);
        const written = await panel.exportCsv(panel.currentView);
        const lines = fs
          .readFileSync(file, 'utf8')
          .replace(/^\uFEFF/, '')
          .trim()
          .split('\r\n');
        assert.equal(lines.length, (written ?? 0) + 2);
        assert.ok((written ?? 0) > 1, `${written} members of engineering`);
        // The first line says whose access, which filters made it, and since when the portal was read.
        assert.match(
          lines[0] ?? '',
          /^Access of Acme Corporation; filters: group Engineering; the portal read since \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/,
        );
        assert.match(
          lines[1] ?? '',
          /^Username,Name,E-mail,Tags,Last active,State,Organisation permission,Group permission$/,
        );
        assert.ok(
          lines.some((l) => l.startsWith('member,') && l.endsWith('Standard')),
          lines.join('\n'),
        );
        // Every line is a member of engineering: a level in the last column.
        for (const l of lines.slice(2)) assert.match(l, /(Basic|Standard|Administrator)$/);
      });
    });

    it("Give Same Access as… plans the source's groups through the Plan view, applies them, and the matrix reads the row again", async () => {
      const acme = account(1, 'Acme Corporation');
      const session = t.members.access.sessions.get(acme) as unknown as MatrixPanelLike['session'] & {
        matrix: { all(): Iterable<unknown[]> };
      };
      const social = session.matrix.columnOf('social');
      const engineering = session.matrix.columnOf('engineering');
      const marketing = session.matrix.columnOf('marketing');
      // A target that differs from the source in each of the three groups, so each shows in the plan; which
      // generated member that is depends on the order the reads answered in.
      const target = [...session.matrix.all()]
        .map((r) => r as unknown[])
        .find(
          (r) =>
            /^[a-z]+\.[a-z]+$/.test(String(r[1])) &&
            levelIn(r, social) === 0 &&
            levelIn(r, engineering) !== 2 &&
            levelIn(r, marketing) !== 1 &&
            (r[READ_AT] as number) > 0,
        );
      assert.ok(target, 'a generated member outside social');
      const username = String(target[1]);
      t.members.show(acme);
      const node = await nodeOf({ kind: 'member', portalId: p.portalId, accountId: 1, username });
      await withUi(
        {
          'pick.member': { search: 'member', pick: (v: { username: string }) => v.username === 'member' },
          'access.same.options': () => false,
          'plan.apply.confirm': true,
        },
        async (ui) => {
          await vscode.commands.executeCommand('portal.member.giveSameAccess', node);
          const shown = (
            t.members.plan.store as unknown as {
              plan?: { plan: { groupChanges: ReadonlyArray<{ username: string; groupName: string; after: number }> } };
            }
          ).plan;
          assert.ok(shown, 'the plan is on show');
          const planned = shown.plan.groupChanges
            .filter((c) => c.username.toLowerCase() === username)
            .map((c) => `${c.groupName}=${c.after}`)
            .sort();
          assert.deepEqual(
            planned.filter((g) => /^(engineering|marketing|social)=/.test(g)),
            ['engineering=4', 'marketing=1', 'social=16'],
          );
          // Nothing was sent yet: the portal still has the target outside social.
          const before = await portalJson<{ groups?: Record<string, number> }>(
            p.emu.url,
            p.token,
            'GET',
            `/v2/accounts/1/members/${encodeURIComponent(username)}`,
          );
          assert.equal(before.body.groups?.social, undefined);
          await vscode.commands.executeCommand('portal.plan.apply');
          const after = await portalJson<{ groups?: Record<string, number> }>(
            p.emu.url,
            p.token,
            'GET',
            `/v2/accounts/1/members/${encodeURIComponent(username)}`,
          );
          assert.equal(after.body.groups?.social, 16);
          // The matrix reads the changed row again and shows the new cells.
          const panel = (await vscode.commands.executeCommand('portal.access.openMatrix')) as MatrixPanelLike;
          await panel.session.read(() => ui);
          assert.equal(levelIn(panel.session.matrix.row(username), social), 3);
        },
      );
    });

    it('Copy access from… finds a member by job title, with rows naming the title and the groups by their names', async () => {
      const acme = account(1, 'Acme Corporation');
      const list = await portalJson<{
        items: Array<{ user: { username: string; name: string; jobTitle: string | null } }>;
      }>(p.emu.url, p.token, 'GET', '/v3/accounts/1/members?page=1&size=100');
      const analyst = list.body.items.find((m) => m.user.jobTitle === 'Analyst' && !/analyst/i.test(m.user.name));
      assert.ok(analyst, 'the seed has an analyst whose name does not say so');
      t.members.show(acme);
      const node = await nodeOf({ kind: 'member', portalId: p.portalId, accountId: 1, username: 'demo' });
      const ui = await withUi(
        {
          'pick.member': {
            search: 'analyst',
            pick: (v: { username: string }) => v.username === analyst.user.username,
          },
          'access.same.options': DISMISS,
        },
        async (scripted) => {
          // The rows name the groups the matrix's stored reads know: read them first.
          const session = t.members.access.sessions.get(acme) as unknown as MatrixPanelLike['session'];
          await session.read(() => scripted);
          await vscode.commands.executeCommand('portal.member.giveSameAccess', node);
          return scripted;
        },
        { allUsed: false },
      );
      const asked = ui.asked.find((q) => q.id === 'pick.member');
      assert.ok(asked?.texts.includes('Copy access from…'), asked?.texts.join(' | '));
      assert.ok(asked?.items?.includes(analyst.user.name), 'found by the job title typed');
      assert.ok(
        asked?.texts.some((x) => x.startsWith('Analyst · ')),
        'the row names the job title',
      );
      assert.ok(
        asked?.texts.some((x) => /^Groups: .*[A-Z]/.test(x) || x === 'In no group'),
        'the row names the groups, by the names people know',
      );
    });

    it('a read cancelled halfway is finished by a new session loaded from the journal alone, with no member read twice', async () => {
      const globex = account(2, 'Globex Research');
      const members = await totalOf(2);
      // One read at a time, each slow enough that the cancel lands between two reads.
      await vscode.workspace.getConfiguration('portal').update('maxConcurrentRequests', 1, true);
      p.emu.setFaults([{ kind: 'latency', path: '/v2/accounts/2/members/', delayMs: 40 }]);
      p.emu.resetStats();
      const half = Math.floor(members / 2);
      const node = await nodeOf({ kind: 'account', portalId: p.portalId, accountId: 2 });
      await withUi({}, async (ui) => {
        const session = t.members.access.sessions.get(globex) as unknown as MatrixPanelLike['session'];
        let read = 0;
        const sub = session.onRow((row) => {
          if ((row[READ_AT] as number) > 0 && ++read === half) session.cancel();
        });
        const panel = (await vscode.commands.executeCommand('portal.access.openMatrix', node)) as MatrixPanelLike;
        const first = await panel.session.read(() => ui);
        sub.dispose();
        assert.equal(first?.outcome, 'cancelled');
        assert.equal(memberReads(), half, 'stopped halfway');

        // Everything in memory is dropped; only the file in the extension's storage remains. (A real restart of the
        // extension host: the suite below and suites/restart/matrix-resume.test.ts.)
        await t.members.access.sessions.forget();
        const reopened = (await vscode.commands.executeCommand('portal.access.openMatrix', node)) as MatrixPanelLike;
        assert.notEqual(reopened.session, panel.session, 'a new session, loaded from disk');
        const second = await reopened.session.read(() => ui);
        assert.equal(second?.outcome, 'done');
        assert.equal(second?.reads, members - half, 'only the members not read before');
        assert.equal(reopened.session.matrix.readCount(), members);
        assert.equal(memberReads(), members, 'no member read twice');
      });
    });
  });

describe(`Members: ${ACCESS_RESTART} (before the restart)`, function () {
  this.timeout(180_000);

  it("cancels the matrix read of the shared portal's Acme halfway, and leaves it so as the phase ends", async () => {
    dropAccessRestartRecord();
    const url = process.env.PORTAL_TEST_EMULATOR_URL;
    assert.ok(url, 'the runner provides the shared emulator');
    const portalId = portalIdOf(url, 'portal');
    const script = await signInForTest({ baseUrl: url, username: 'demo', password: 'demo' });
    assert.deepEqual(script.failures, []);
    const token = await passwordToken(url, 'demo', 'demo');
    const page = await portalJson<{ items: Array<{ user: { username: string } }>; totalResults: number }>(
      url,
      token,
      'GET',
      '/v3/accounts/1/members?page=1&size=100',
    );
    const usernames = page.body.items.map((m) => m.user.username.toLowerCase());
    assert.equal(usernames.length, page.body.totalResults, 'one page holds every member');
    const half = Math.floor(usernames.length / 2);
    const t = (await portalApi()).testing;
    const acme = { kind: 'account' as const, portalId, accountId: 1, label: 'Acme Corporation' };
    // One read at a time, each slow enough that the cancel lands between two reads.
    const config = vscode.workspace.getConfiguration('portal');
    await config.update('maxConcurrentRequests', 1, vscode.ConfigurationTarget.Global);
    const counter = await MemberReadCounter.start(url, 1, usernames, () => 40);
    try {
      t.members.show(acme);
      await withUi({}, async (ui) => {
        const session = t.members.access.sessions.get(acme) as unknown as MatrixPanelLike['session'];
        assert.equal(session.matrix.readCount(), 0, 'nothing of this organisation was read before');
        let read = 0;
        const sub = session.onRow((row) => {
          if ((row[READ_AT] as number) > 0 && ++read === half) session.cancel();
        });
        try {
          const panel = (await vscode.commands.executeCommand('portal.access.openMatrix')) as MatrixPanelLike;
          const first = await panel.session.read(() => ui);
          assert.equal(first?.outcome, 'cancelled');
          assert.equal(panel.session.matrix.readCount(), half, 'stopped halfway');
        } finally {
          sub.dispose();
        }
      });
      const counts = await counter.counts();
      const readOnce = [...counts].filter(([, n]) => n === 1).map(([u]) => u);
      assert.equal(readOnce.length, half, 'the emulator answered half of the members');
      assert.ok(
        [...counts.values()].every((n) => n <= 1),
        'no member was read twice',
      );
      writeAccessRestartRecord({ portalId, accountId: 1, members: usernames, reads: Object.fromEntries(counts) });
    } finally {
      await counter.stop();
      await config.update('maxConcurrentRequests', undefined, vscode.ConfigurationTarget.Global);
      t.members.access.panels.dispose();
    }
  });
});
