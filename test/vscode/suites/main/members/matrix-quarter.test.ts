// The access review of a quarter, as an auditor meets it: "inactive 90+ days" without today's starters (unless asked),
// in the access matrix and the Members view alike; a read age that keeps counting; exports whose names say what they
// hold; and the Explorer's group counts once the matrix has read the members.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { startDemoPortal, stopDemoPortal, type DemoPortal } from '../../../support/demoPortal';
import { portalJson } from '../../../support/portalHttp';
import { byLabel, features, loadAll, rows, walk, type Provider, type Testing } from '../../../support/tree';
import { withUi } from '../../../support/ui';
import { waitFor } from '../../../../support/wait';
import { statusWords, type MatrixProgress } from '../../../../../src/features/members/access/matrix.protocol';
import { tempDir } from '../../../../support/tempDir';

const DAY = 86_400_000;
const STARTER = 'stella.starter';

interface MatrixPanelLike {
  readonly session: {
    readonly matrix: { columnOf(name: string): number | undefined };
    read(ui: () => unknown): Promise<{ outcome: string; reads: number } | undefined>;
    progress(): { oldestReadAt: number };
  };
  readonly panel: vscode.WebviewPanel;
  onDidPost(listener: (m: { type: string; [k: string]: unknown }) => void): vscode.Disposable;
  exportCsv(view: object): Promise<number | undefined>;
  postProgress(now?: number): void;
}

/** A day as an export's name ends with it: the local date. */
function today(): string {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

describe('Members: the access review of a quarter (default)', function () {
  this.timeout(180_000);
  let p: DemoPortal;
  let t: Testing;
  const tmp = tempDir('matrix-quarter-');
  const acme = { kind: 'account' as const, portalId: '', accountId: 1, label: 'Acme Corporation' };
  const config = () => vscode.workspace.getConfiguration('portal');

  /** Adds a member to Acme on the portal directly (another administrator's change), in these groups. */
  const addMember = async (username: string, groups: Record<string, number>, startsIn?: number): Promise<void> => {
    const res = await portalJson(p.emu.url, p.token, 'POST', '/v2/accounts/1/members', {
      user: { username, name: username.replace('.', ' '), email: `${username}@acme.example` },
      groups,
      ...(startsIn !== undefined ? { activationType: 'custom', activationDate: Date.now() + startsIn } : {}),
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
  };
  const openMatrix = async (): Promise<MatrixPanelLike> => {
    t.members.show(acme);
    return (await vscode.commands.executeCommand('portal.access.openMatrix')) as MatrixPanelLike;
  };
  /** Exports `view` and answers the file's lines and the name the save dialog suggested. */
  const exported = async (panel: MatrixPanelLike, view: object, name: string) => {
    const file = path.join(tmp, name);
    const suggested = await withUi({ 'access.export.file': file }, async (ui) => {
      await panel.exportCsv(view);
      return ui.asked.find((q) => q.id === 'access.export.file')?.texts[1];
    });
    const lines = fs
      .readFileSync(file, 'utf8')
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    return { lines, suggested, usernames: lines.slice(2).map((l) => l.split(',')[0] ?? '') };
  };

  before(async () => {
    p = await startDemoPortal();
    Object.assign(acme, { portalId: p.portalId });
    t = await features();
    // Lists stay fresh for an hour: a row that changes does so because the extension read it again, not by age.
    await config().update('cacheSeconds', 3600, vscode.ConfigurationTarget.Global);
    // Today's starter: in Engineering, never active, the activation e-mail due in three days.
    await addMember(STARTER, { engineering: 4 }, 3 * DAY);
  });
  after(async () => {
    await config().update('cacheSeconds', undefined, vscode.ConfigurationTarget.Global);
    t.members.access.panels.dispose();
    await t.members.access.sessions.forget();
    await vscode.commands.executeCommand('portal.members.clearFilter');
    await stopDemoPortal(p);
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it("the Explorer's group member count follows a matrix read, with no refresh", async () => {
    const explorer = t.explorer.provider as unknown as Provider;
    const count = async (): Promise<string> => {
      const org = await walk(explorer, p.portalId, ['Acme Corporation']);
      return /^[\d,]+ members?/.exec(byLabel(await rows(explorer, org.node), 'Engineering').description)?.[0] ?? '';
    };
    const before = await count();
    // Another administrator adds a member to Engineering: the Explorer's list, fresh for an hour, does not know.
    await addMember('otto.other', { engineering: 1 });
    assert.equal(await count(), before, 'the Explorer still shows the count it read');
    const groups = await portalJson<Array<{ name: string; members: number }>>(
      p.emu.url,
      p.token,
      'GET',
      '/v2/accounts/1/groups',
    );
    const wanted = `${groups.body.find((g) => g.name === 'engineering')?.members} members`;
    assert.notEqual(wanted, before);
    const panel = await openMatrix();
    await withUi({}, (ui) => panel.session.read(() => ui));
    let shown = '';
    await waitFor(async () => (shown = await count()) === wanted, `the Explorer shows ${wanted}`).catch(
      () => undefined,
    );
    assert.equal(shown, wanted);
  });

  it('Inactive 90+ days in the matrix leaves out members not started yet, unless kept; the export says which', async () => {
    const panel = await openMatrix();
    await withUi({}, (ui) => panel.session.read(() => ui));
    const left = await exported(panel, { inactiveDays: 90 }, 'left-out.csv');
    assert.ok(left.usernames.length > 0, 'the seed has members inactive for 90 days');
    assert.ok(!left.usernames.includes(STARTER), `today's starter is left out: ${left.usernames.join(' ')}`);
    assert.match(left.lines[0] ?? '', /filters: inactive 90\+ days, members not started yet left out;/);
    const kept = await exported(panel, { inactiveDays: 90, notStarted: true }, 'kept.csv');
    assert.deepEqual(kept.usernames.sort(), [...left.usernames, STARTER].sort());
    assert.match(kept.lines[0] ?? '', /members not started yet included/);
    // The page's toggle is part of the protocol: the host keeps it as the page's view.
    await (panel as unknown as { handleMessage(m: unknown): Promise<void> }).handleMessage({
      type: 'view',
      view: { inactiveDays: 90, notStarted: true },
    });
    assert.deepEqual((panel as unknown as { currentView: object }).currentView, { inactiveDays: 90, notStarted: true });
  });

  it("the Members view's Filter by Activity leaves them out the same way, and keeps them when asked", async () => {
    const members = t.members.provider as unknown as Provider;
    t.members.show(acme);
    await withUi({ 'members.activity': 'Inactive for a number of days…', 'members.activity.days': '90' }, () =>
      vscode.commands.executeCommand('portal.members.filterActivity'),
    );
    const without = (await loadAll(members, undefined, 'portal.members.loadMore')).map((r) => r.description);
    assert.ok(without.length > 0);
    assert.ok(!without.some((d) => d.startsWith(`${STARTER} `)), without.join('\n'));
    await withUi(
      {
        'members.activity': (v: string) => v === 'inactive' || v === 'notStarted',
        'members.activity.days': '90',
      },
      () => vscode.commands.executeCommand('portal.members.filterActivity'),
    );
    const withStarters = (await loadAll(members, undefined, 'portal.members.loadMore')).map((r) => r.description);
    assert.equal(withStarters.length, without.length + 1);
    assert.ok(withStarters.some((d) => d.startsWith(`${STARTER} `)));
    assert.match(t.members.view.description ?? '', /inactive 90\+ days, members not started yet included/);
  });

  it('the read age keeps counting: the host says it again as its words change, told as of its own clock', async () => {
    const panel = await openMatrix();
    panel.panel.reveal(vscode.ViewColumn.One);
    await withUi({}, (ui) => panel.session.read(() => ui));
    // The page has said it is ready and every row read is sent: from here only the read's age sends the progress
    // again (a page's ready or a batch of rows would send it too, and then the age's own timer is not what is shown).
    const quiet = panel as unknown as { ready: boolean; timer: unknown; pending: ReadonlyMap<number, unknown> };
    await waitFor(
      () => quiet.ready && quiet.timer === undefined && quiet.pending.size === 0,
      'the matrix page is ready and every row is sent',
    );
    const posted: Array<{ progress: MatrixProgress; now: number }> = [];
    const sub = panel.onDidPost((m) => {
      if (m.type === 'progress') posted.push({ progress: m.progress as MatrixProgress, now: m.now as number });
    });
    try {
      // Told as of two seconds after the oldest read, whenever that read was (an earlier test may have read the
      // matrix minutes ago): the words say seconds, and the next words are due within a second.
      panel.postProgress(panel.session.progress().oldestReadAt + 2_000);
      const words = (x: { progress: MatrixProgress; now: number }): string => statusWords(x.progress, x.now);
      const first = posted[0];
      assert.ok(first);
      assert.match(words(first), /oldest read 2 seconds ago$/);
      // With no read running, the progress comes again by itself once the age's words change.
      await waitFor(
        () => posted.some((x) => words(x) !== words(first)),
        `the read age is said again: ${posted.map(words).join(' | ')}`,
      );
      // Two minutes on, the page reads "2 minutes ago": the words come from the read's time and the host's clock.
      const oldest = first.progress.oldestReadAt;
      panel.postProgress(oldest + 125_000);
      const later = posted[posted.length - 1];
      assert.ok(later);
      assert.match(statusWords(later.progress, later.now), /oldest read 2 minutes ago$/);
    } finally {
      sub.dispose();
    }
  });

  it("the matrix's exports suggest names that differ by kind and carry their filters", async () => {
    const panel = await openMatrix();
    // Read here, not left to an earlier test: run alone, the matrix knew no group to export.
    await withUi({}, (ui) => panel.session.read(() => ui));
    const engineering = panel.session.matrix.columnOf('engineering');
    assert.notEqual(engineering, undefined);
    const matrix = await exported(panel, { inactiveDays: 90 }, 'a.csv');
    const group = await exported(panel, { group: engineering }, 'b.csv');
    assert.equal(matrix.suggested, `access-Acme-Corporation-inactive-90d-${today()}.csv`);
    assert.equal(group.suggested, `group-members-Engineering-Acme-Corporation-${today()}.csv`);
  });
});
