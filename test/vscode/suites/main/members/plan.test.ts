// Membership as code inside VS Code: export with group permissions, the file's problems in the Problems panel, a
// hover with the portal's state, Plan Changes… grouped by action, Apply with its report, Undo Last Apply through a
// plan of its own, conflicts left out unless chosen, Retry Failed, and Re-create Member from a snapshot. Every
// change is checked on the portal over HTTP, not through the extension.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ColumnKey } from '../../../../../src/features/members/plan/core/model';
import { PROFILES, type DemoPortal } from '../../../support/demoPortal';
import {
  appendRow,
  cellOf,
  deleteRow,
  eventually,
  readFile,
  rowOf,
  setCell,
  usernames,
} from '../../../support/membersFile';
import { portalJson } from '../../../support/portalHttp';
import { features, loadAll, type Provider, type Row } from '../../../support/tree';
import { exportWithGroups, useAcmeMembers } from '../../../support/membersView';
import { visible, withUi, type ScriptedUi } from '../../../support/ui';

interface MemberJson {
  user: { username: string; name: string; email: string; enabled: boolean; locked: boolean };
  tags: string[];
}
interface MemberV2Json {
  groups?: Record<string, number>;
}

const ENGINEERING: ColumnKey = 'group:engineering';
const told = (ui: ScriptedUi): string[] => ui.told.map((t) => visible(t.text));
const asked = (ui: ScriptedUi, id: string): string =>
  visible(ui.asked.find((q) => q.id === id)?.texts.join('\n') ?? '');

async function plan() {
  return (await features()).members.plan;
}

/** The plan on show: its changes by section, as ids. */
async function shownPlan() {
  const shown = (await plan()).store.plan;
  assert.ok(shown, 'a plan is shown');
  const ids = (list: readonly { id: string }[]) => list.map((c) => c.id);
  return {
    shown,
    newMembers: ids(shown.plan.newMembers),
    fields: ids(shown.plan.fieldChanges),
    groups: ids(shown.plan.groupChanges),
    disabled: ids(shown.plan.disabled),
    absent: ids(shown.plan.absent),
    conflicts: shown.plan.conflicts.map((c) => c.username),
  };
}

for (const profile of PROFILES)
  describe(`Members: plan changes from a members file (${profile})`, function () {
    this.timeout(270_000);
    let p: DemoPortal;
    let dir: string;
    const member = async (name: string): Promise<MemberJson | undefined> => {
      const res = await portalJson<MemberJson>(p.emu.url, p.token, 'GET', `/v3/accounts/1/members/${name}`);
      if (res.status === 404) return undefined;
      assert.equal(res.status, 200, `GET ${name}`);
      return res.body;
    };
    /** The member's level in the engineering group (0: not in it), from the v2 member read. */
    const engineering = async (name: string): Promise<number> => {
      const res = await portalJson<MemberV2Json>(p.emu.url, p.token, 'GET', `/v2/accounts/1/members/${name}`);
      assert.equal(res.status, 200, `GET v2 ${name}`);
      const groups = res.body.groups ?? {};
      return groups.engineering ?? 0;
    };
    /** Exports Acme with group columns; opens the file in an editor. */
    const exportAcme = (name: string) => exportWithGroups(dir, name);
    /** Generated members of the seed (first.last) that the rows of the file hold. */
    const plainMembers = (doc: vscode.TextDocument): string[] =>
      usernames(doc).filter(
        (u) => /^[a-z]+\.[a-z]+$/.test(u) && !['victor.hale', 'lena.locked', 'yara.haddad'].includes(u),
      );
    /** Plan Changes… on the members file in the editor (the report of an earlier apply may have taken the focus). */
    /** Members absent from the file are left alone, when the plan asks (only when there are some). */
    const planChanges = (answers: Record<string, unknown> = {}, doc?: vscode.TextDocument) =>
      withUi(
        { 'plan.absent': 'Leave them alone', ...answers } as never,
        async (ui) => {
          if (doc) await vscode.window.showTextDocument(doc);
          await vscode.commands.executeCommand('portal.plan.planChanges');
          return ui;
        },
        { allUsed: false },
      );
    const apply = (answers: Record<string, unknown> = {}) =>
      withUi({ 'plan.apply.confirm': true, ...answers } as never, async (ui) => {
        await vscode.commands.executeCommand('portal.plan.apply');
        return ui;
      });

    useAcmeMembers('portal-plan-', { profile }, (s) => ({ p, dir } = s));

    afterEach(() => p.emu.clearFaults());

    it('exports with group permissions, saying what they cost; the file reads back without a problem', async () => {
      p.emu.resetStats();
      const { doc, ui } = await exportAcme('acme.csv');
      assert.match(asked(ui, 'members.export.groups'), /One more request per member/);
      const file = readFile(doc);
      assert.ok(file.groupColumns.includes('engineering'), `group columns: ${file.groupColumns.join(', ')}`);
      assert.ok(file.rows.length >= 30, `${file.rows.length} rows`);
      const words = new Set(usernames(doc).map((u) => cellOf(doc, u, ENGINEERING)));
      for (const w of words) assert.ok(['', 'Basic', 'Standard', 'Administrator'].includes(w), `group word ${w}`);
      const stats = p.emu.stats().byRoute;
      assert.equal(stats['GET /v2/accounts/:account/members/:username'], file.rows.length, 'one read per member');
      const problems = await (await plan()).diagnostics.check(doc);
      assert.deepEqual(
        problems.filter((d) => d.severity === vscode.DiagnosticSeverity.Error).map((d) => d.message),
        [],
      );
      assert.ok(
        (await vscode.commands.getCommands(true)).includes('portal.plan.planChanges'),
        'Plan Changes… is registered',
      );
    });

    it('shows a bad permission word in the Problems panel at its line and column, and clears it once fixed', async () => {
      const { doc } = await exportAcme('problems.csv');
      const [someone] = plainMembers(doc);
      assert.ok(someone);
      const range = await setCell(doc, someone, ENGINEERING, 'Admin');
      const diagnostics = await eventually(
        () => vscode.languages.getDiagnostics(doc.uri).filter((d) => d.severity === vscode.DiagnosticSeverity.Error),
        (d) => d.length > 0,
        'the problem reaches the Problems panel',
      );
      assert.equal(diagnostics.length, 1, diagnostics.map((d) => d.message).join('\n'));
      const [d] = diagnostics;
      assert.ok(d);
      assert.match(d.message, /"Admin" is not a group permission: write Basic, Standard, Administrator/);
      assert.equal(d.range.start.line, range.start.line);
      assert.equal(d.range.start.character, range.start.character);
      await setCell(doc, someone, ENGINEERING, 'Administrator');
      await eventually(
        () => vscode.languages.getDiagnostics(doc.uri).filter((x) => x.severity === vscode.DiagnosticSeverity.Error),
        (x) => x.length === 0,
        'the problem clears',
      );
      // A cell that reads like a link is shown as typed, never as one.
      await setCell(doc, someone, ENGINEERING, '[x](command:workbench.action.openSettings)');
      const hostile = await eventually(
        () => vscode.languages.getDiagnostics(doc.uri).filter((x) => x.severity === vscode.DiagnosticSeverity.Error),
        (x) => x.length === 1,
        'the hostile cell is a problem',
      );
      assert.doesNotMatch(hostile[0]?.message ?? '', /\]\(command:/);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    });

    it('plans exactly the three rows edited (new member, tag, group), applies them, opens the report; undo puts the portal back', async () => {
      const { doc } = await exportAcme('three.csv');
      const [tagged, grouped] = plainMembers(doc).filter((u) => u !== undefined);
      assert.ok(tagged && grouped);
      const groupedBefore = cellOf(doc, grouped, ENGINEERING);
      const groupedAfter = groupedBefore === 'Standard' ? 'Basic' : 'Standard';
      const tagsBefore = (await member(tagged))?.tags ?? [];
      await setCell(doc, tagged, 'tags', [...tagsBefore, 'plan-test'].join(', '));
      await setCell(doc, grouped, ENGINEERING, groupedAfter);
      await appendRow(doc, {
        username: 'new.starter',
        name: 'New Starter',
        email: 'new.starter@acme.example',
        enabled: 'true',
        locked: 'false',
        accountPermission: 'Member',
        tags: 'new-hire',
        twoFactor: 'false',
        [ENGINEERING]: 'Basic',
      });
      const levelBefore = await engineering(grouped);

      const planUi = await planChanges();
      assert.deepEqual(planUi.questions, [], 'the organisation is known from the export, and nobody is absent');
      const planned = await shownPlan();
      assert.deepEqual(planned.newMembers, ['new.starter#create']);
      assert.deepEqual(planned.fields, [`${tagged}#field:tags`]);
      assert.equal(planned.groups.length, 1);
      assert.match(planned.groups[0] ?? '', new RegExp(`^${grouped}#group:`));
      assert.deepEqual([planned.disabled, planned.absent, planned.conflicts], [[], [], []]);
      const view = (await plan()).view;
      const sections = view.getChildren();
      assert.equal(sections.length, 3, 'three sections');
      assert.equal(sections.flatMap((s) => view.getChildren(s)).length, 3, 'three change rows');
      assert.match(view.view.message ?? '', /3 of 3 changes chosen\. Nothing is sent until Apply\./);
      assert.equal(await member('new.starter'), undefined, 'nothing was sent by planning');

      // The hover shows the portal's state as the plan read it.
      const row = rowOf(doc, tagged);
      const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
        'vscode.executeHoverProvider',
        doc.uri,
        new vscode.Position(row.line, 1),
      );
      const hoverText = hovers
        .flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : (c as vscode.MarkdownString).value)))
        .join('\n')
        // Markdown as VS Code escapes appended text: spaces as &nbsp;, punctuation behind backslashes.
        .replace(/&nbsp;/g, ' ')
        .replace(/\\(.)/g, '$1');
      assert.match(hoverText, /^On the portal, read /);
      assert.match(hoverText, /\*\*Tags:\*\* /);

      p.emu.resetStats();
      const applyUi = await apply();
      assert.deepEqual(applyUi.questions, ['plan.apply.confirm']);
      assert.match(asked(applyUi, 'plan.apply.confirm'), /^Apply changes to 3 members of Acme Corporation\?/);
      assert.match(asked(applyUi, 'plan.apply.confirm'), /New members: 1/);
      assert.match(told(applyUi).join('\n'), /Done: 3\./);
      const report = vscode.window.activeTextEditor?.document;
      assert.ok(
        report && /apply-[-0-9a-f]+\.csv$/.test(report.uri.fsPath),
        `the report is open: ${report?.uri.fsPath}`,
      );
      assert.match(report.getText(), /^\uFEFF?row,username,action,result,message/);
      assert.equal((report.getText().match(/,done,/g) ?? []).length, 3, report.getText());
      assert.equal((await plan()).store.plan, undefined, 'the applied plan is gone from the view');

      assert.ok((await member(tagged))?.tags.includes('plan-test'), 'the tag is on the portal');
      assert.notEqual(await engineering(grouped), levelBefore, 'the group permission changed');
      const created = await member('new.starter');
      assert.equal(created?.user.name, 'New Starter');
      assert.equal(await engineering('new.starter'), 1, 'the new member is in engineering as Basic');

      // Undo Last Change: a plan of its own, applied after its confirmation (and the count typed: the undo of a
      // create deletes the user for good).
      await withUi({ 'plan.undoLast.confirm': true }, () =>
        vscode.commands.executeCommand('portal.plan.undoLastApply'),
      );
      const undo = await shownPlan();
      assert.equal(undo.shown.plan.origin, 'undo');
      // Removing the member the apply created deletes them for good: a snapshot is kept first, in a folder asked once.
      fs.mkdirSync(path.join(dir, 'snapshots'), { recursive: true });
      await withUi(
        {
          'plan.apply.confirm': true,
          'plan.apply.typeCount': '1',
          'plan.snapshot.folder': path.join(dir, 'snapshots'),
        },
        () => vscode.commands.executeCommand('portal.plan.apply'),
        { allUsed: false },
      );
      assert.deepEqual((await member(tagged))?.tags, tagsBefore, 'the tag is gone again');
      assert.equal(await engineering(grouped), levelBefore, 'the group permission is back');
      assert.equal(await member('new.starter'), undefined, 'the new member is removed again');
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    });

    it('a member changed on the portal after the export is a conflict: left unchanged unless chosen', async () => {
      const { doc } = await exportAcme('conflict.csv');
      const [changedThere, calm] = plainMembers(doc).slice(4);
      assert.ok(changedThere && calm);
      await setCell(doc, changedThere, 'tags', 'from-the-file');
      await setCell(doc, calm, 'tags', 'from-the-file');
      await new Promise((r) => setTimeout(r, 20));
      // Someone else changes the member on the portal after the export.
      const lock = await portalJson(p.emu.url, p.token, 'PATCH', `/v3/accounts/1/members/${changedThere}`, {
        lock: true,
      });
      assert.equal(lock.status, 200);
      await planChanges();
      const planned = await shownPlan();
      assert.deepEqual(planned.conflicts, [changedThere], 'one conflict');
      assert.ok(planned.shown.leftOut.has(`${changedThere}#field:tags`), 'its change is left out by default');
      const view = (await plan()).view;
      const conflictSection = view.getChildren().find((n) => n.kind === 'section' && n.key === 'conflicts');
      assert.ok(conflictSection, 'the view has a conflicts section');
      const conflictItem = view.getTreeItem(view.getChildren(conflictSection)[0]!);
      assert.equal(conflictItem.checkboxState, vscode.TreeItemCheckboxState.Unchecked);
      assert.match(String(conflictItem.description), /changed on the portal .* after the export/);

      const ui = await apply();
      assert.match(asked(ui, 'plan.apply.confirm'), /^Apply changes to 1 member of Acme Corporation\?/);
      assert.deepEqual((await member(calm))?.tags, ['from-the-file']);
      assert.notDeepEqual((await member(changedThere))?.tags, ['from-the-file'], 'the conflict was not overwritten');
      assert.equal((await member(changedThere))?.user.locked, true, "the portal's change stays");

      // Chosen explicitly (its checkbox ticked), the conflicting row is applied.
      await planChanges({}, doc);
      const again = await shownPlan();
      assert.deepEqual(again.conflicts, [changedThere]);
      const item = view.getChildren(view.getChildren().find((n) => n.kind === 'section' && n.key === 'conflicts'))[0];
      assert.ok(item);
      (await plan()).store.include(view.idsOf(item), true);
      const chosen = await apply();
      assert.match(asked(chosen, 'plan.apply.confirm'), /Conflicting rows you chose to apply anyway: 1/);
      assert.deepEqual((await member(changedThere))?.tags, ['from-the-file']);
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    });

    it('Retry Failed sends again only what failed; Discard Plan empties the view', async () => {
      const { doc } = await exportAcme('retry.csv');
      const [a, b] = plainMembers(doc).slice(8);
      assert.ok(a && b);
      await setCell(doc, a, 'tags', 'retry-a');
      await setCell(doc, b, 'tags', 'retry-b');
      await planChanges();
      p.emu.setFaults([
        { kind: 'status', status: 500, method: 'PATCH', path: `/v3/accounts/1/members/${b}`, count: 10 },
      ]);
      const ui = await apply();
      assert.match(asked(ui, 'plan.apply.done'), /Done: 1\. Failed: 1\.[^]*Retry Failed/);
      assert.match(vscode.window.activeTextEditor?.document.getText() ?? '', new RegExp(`${b},update,failed,`));
      p.emu.clearFaults();
      p.emu.resetStats();
      await withUi({ 'plan.apply.confirm': true }, () => vscode.commands.executeCommand('portal.plan.retryFailed'));
      assert.equal(p.emu.stats().byRoute['PATCH /v3/accounts/:account/members/:username'], 1, 'only the failure');
      assert.deepEqual((await member(b))?.tags, ['retry-b']);

      await setCell(doc, a, 'tags', 'discarded');
      await planChanges({}, doc);
      await withUi({}, () => vscode.commands.executeCommand('portal.plan.discard'));
      assert.equal((await plan()).store.plan, undefined);
      assert.deepEqual((await plan()).view.getChildren(), []);
      assert.deepEqual((await member(a))?.tags, ['retry-a'], 'a discarded plan sends nothing');
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    });

    it('removing a member absent from the file keeps a snapshot first; Re-create Member brings them back', async () => {
      const { doc } = await exportAcme('absent.csv');
      // Acme's own members (no other organisation) are deleted for good when removed.
      const acmeOnly = plainMembers(doc).find((u) => /@acme\.example$/.test(cellOf(doc, u, 'email')));
      assert.ok(acmeOnly);
      const before = await member(acmeOnly);
      const levelBefore = await engineering(acmeOnly);
      await deleteRow(doc, acmeOnly);
      await planChanges({ 'plan.absent': 'Remove them from the organisation' });
      const planned = await shownPlan();
      assert.deepEqual(planned.absent, [`${acmeOnly}#absent`]);
      assert.deepEqual(planned.shown.plan.permanentDeletions, [`${acmeOnly}#absent`]);
      const view = (await plan()).view;
      const absentSection = view.getChildren().find((n) => n.kind === 'section' && n.key === 'absent');
      assert.ok(absentSection);
      assert.match(String(view.getTreeItem(view.getChildren(absentSection)[0]!).description), /DELETED FOR GOOD/);
      // The folder is asked the first time only (an earlier profile's run may have chosen it already).
      const chosen = path.join(dir, 'snapshots');
      fs.mkdirSync(chosen, { recursive: true });
      const ui = await withUi(
        { 'plan.apply.confirm': true, 'plan.apply.typeCount': '1', 'plan.snapshot.folder': chosen },
        async (u) => {
          await vscode.commands.executeCommand('portal.plan.apply');
          return u;
        },
        { allUsed: false },
      );
      const kept = /A snapshot of each is kept in (.+)$/m.exec(asked(ui, 'plan.apply.confirm'))?.[1];
      assert.ok(
        kept && fs.existsSync(kept),
        `the confirmation names the snapshot folder: ${asked(ui, 'plan.apply.confirm')}`,
      );
      assert.match(asked(ui, 'plan.apply.confirm'), /deleted for good .*: 1\./);
      assert.equal(await member(acmeOnly), undefined, 'removed');
      const files = fs.readdirSync(kept).filter((f) => f.includes(acmeOnly));
      assert.ok(files.length >= 1, `a snapshot of ${acmeOnly} in ${kept}: ${fs.readdirSync(kept).join(', ')}`);

      await withUi(
        {
          'plan.recreate.pick': ((v: { snapshot: { username: string } }) => v.snapshot.username === acmeOnly) as never,
          'pick.portal': ((v: unknown) => v === p.portalId) as never,
        },
        () => vscode.commands.executeCommand('portal.plan.recreateMember'),
        { allUsed: false },
      );
      const recreate = await shownPlan();
      assert.equal(recreate.shown.plan.origin, 'recreate');
      assert.equal(recreate.newMembers.length, 1);
      await apply();
      const back = await member(acmeOnly);
      assert.equal(back?.user.name, before?.user.name);
      assert.deepEqual(back?.tags, before?.tags);
      assert.equal(await engineering(acmeOnly), levelBefore, 'group permission restored');
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    });

    it('a bulk edit on a selection is journaled too: Undo Last Apply puts the members back', async () => {
      const t = await features();
      const provider = t.members.provider as unknown as Provider;
      const username = (r: Row): string => (r.node as { ref: { username: string } }).ref.username;
      const rows = (await loadAll(provider, undefined, 'portal.members.loadMore'))
        .filter((r) => r.contextValue.startsWith('member.') && /^[a-z]+\.[a-z]+$/.test(username(r)))
        .slice(12, 15);
      assert.equal(rows.length, 3);
      const before = await Promise.all(rows.map(async (r) => (await member(username(r)))?.tags));
      await withUi({ 'members.tag.add': 'bulk-undo', 'members.bulk.confirm': true }, () =>
        vscode.commands.executeCommand(
          'portal.member.addTag',
          rows[0]?.node,
          rows.map((r) => r.node),
        ),
      );
      for (const r of rows) assert.ok((await member(username(r)))?.tags.includes('bulk-undo'), `${username(r)} tagged`);
      await withUi({ 'plan.undoLast.confirm': true }, () =>
        vscode.commands.executeCommand('portal.plan.undoLastApply'),
      );
      const undo = await shownPlan();
      assert.equal(undo.shown.plan.origin, 'undo');
      assert.deepEqual(
        undo.fields.sort(),
        rows.map((r) => `${username(r)}#field:tags`).sort(),
        'the undo plan puts back the three members the bulk edit tagged',
      );
      await apply();
      const after = await Promise.all(rows.map(async (r) => (await member(username(r)))?.tags));
      assert.deepEqual(after, before, 'the tags are as before the bulk edit');
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    });

    it('Resume Interrupted Apply… with nothing interrupted says so', async () => {
      await withUi({}, async (ui) => {
        await vscode.commands.executeCommand('portal.plan.resume');
        assert.deepEqual(told(ui), ['No apply was interrupted: there is nothing to resume.']);
      });
    });
  });
