// Offboarding in one step, and a change history in the user's words, against the emulator: three leavers selected in
// the Members view are offboarded (each disabled and in no group on the portal, read over HTTP), the history names
// it, one of them is put back, the history says "undone for 1 of 3", and the other two are still offered and put
// back. Undo Last Change… names the change before it opens it, and says which newer change it goes past.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { startDemoPortal, stopDemoPortal, type DemoPortal } from '../../../support/demoPortal';
import { portalJson } from '../../../support/portalHttp';
import { features, loadAll, setPageSize, type Provider, type Row } from '../../../support/tree';
import { showAcmeMembers } from '../../../support/membersView';
import { visible, withUi, type ScriptedUi } from '../../../support/ui';
import { tempDir } from '../../../../support/tempDir';

interface MemberJson {
  user: { username: string; enabled: boolean; locked: boolean };
  tags: string[];
}

const username = (r: Row): string => (r.node as { ref: { username: string } }).ref.username;
const asked = (ui: ScriptedUi, id: string): string =>
  visible(ui.asked.find((q) => q.id === id)?.texts.join('\n') ?? '');
type Past = { undoable: boolean; record: { begin: { title?: string } } };

function onSelection(command: string, rows: readonly Row[]): Thenable<unknown> {
  return vscode.commands.executeCommand(
    command,
    rows[0]?.node,
    rows.map((r) => r.node),
  );
}

/** Where the plan store keeps the organisation of each members file planned (planStore.ts). */
const FILE_ACCOUNTS = 'portal.plan.fileAccounts';

describe('Members: offboarding, and undo member by member', function () {
  this.timeout(270_000);
  let p: DemoPortal;
  let members: Provider;
  let dir: string;
  const member = async (name: string): Promise<MemberJson> =>
    (await portalJson<MemberJson>(p.emu.url, p.token, 'GET', `/v3/accounts/1/members/${name}`)).body;
  const groupsOf = async (name: string): Promise<Record<string, number>> =>
    (await portalJson<{ groups?: Record<string, number> }>(p.emu.url, p.token, 'GET', `/v2/accounts/1/members/${name}`))
      .body.groups ?? {};
  const state = async (name: string) => {
    const m = await member(name);
    return { enabled: m.user.enabled, locked: m.user.locked, tags: m.tags, groups: await groupsOf(name) };
  };
  const shown = (): Promise<Row[]> => loadAll(members, undefined, 'portal.members.loadMore');
  /** Enabled generated members (first.last) in some group, skipping `skip` of them. */
  const leavers = async (skip: number, n: number): Promise<Row[]> => {
    const out: Row[] = [];
    let seen = 0;
    for (const r of await shown()) {
      if (r.contextValue !== 'member.enabled' || !/^[a-z]+\.[a-z]+$/.test(username(r))) continue;
      if (Object.keys(await groupsOf(username(r))).length === 0) continue;
      if (seen++ < skip) continue;
      out.push(r);
      if (out.length === n) break;
    }
    assert.equal(out.length, n);
    return out;
  };
  const apply = () => withUi({ 'plan.apply.confirm': true }, () => vscode.commands.executeCommand('portal.plan.apply'));
  const history = (answers: Record<string, unknown>) =>
    withUi(answers as never, async (ui) => {
      await vscode.commands.executeCommand('portal.plan.showHistory');
      return ui;
    });

  before(async () => {
    p = await startDemoPortal();
    dir = tempDir('portal-offboard-');
    members = await showAcmeMembers(p.portalId);
  });

  after(async () => {
    await setPageSize(undefined);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(dir, { recursive: true, force: true });
    await stopDemoPortal(p);
  });

  it('offboards three selected members, names it in the history, and undoes one, then the other two', async () => {
    const rows = await leavers(0, 3);
    const names = rows.map(username);
    const before = await Promise.all(names.map(state));
    const places = before.reduce((n, s) => n + Object.keys(s.groups).length, 0);
    const title = `Offboard 3: disable, remove from ${places} group places`;

    const ui = await withUi({ 'members.offboard.options': () => false, 'plan.apply.confirm': true }, async (u) => {
      await onSelection('portal.members.offboard', rows);
      return u;
    });
    assert.deepEqual(ui.questions, ['members.offboard.options', 'plan.apply.confirm']);
    assert.match(asked(ui, 'plan.apply.confirm'), new RegExp(`Disable 3, remove from ${places} group places\\.`));
    assert.doesNotMatch(asked(ui, 'plan.apply.confirm'), /Members changed:/);
    for (const name of names) {
      const now = await state(name);
      assert.equal(now.enabled, false, `${name} is disabled on the portal`);
      assert.deepEqual(now.groups, {}, `${name} is in no group on the portal`);
    }

    // The history names it; undoing it for one of them puts only that one back.
    const isOffboard = ((c: Past) => c.undoable && c.record.begin.title === title) as never;
    const first = await history({
      'plan.history.pick': isOffboard,
      'plan.history.members': ((m: string) => m === names[1]) as never,
    });
    assert.ok(asked(first, 'plan.history.pick').includes(`"${title}"`), asked(first, 'plan.history.pick'));
    assert.deepEqual(first.asked.find((q) => q.id === 'plan.history.members')?.items, names);
    const undo = (await features()).members.plan.store.plan;
    assert.match(undo?.plan.title ?? '', new RegExp(`^Undo "${title}" for ${names[1]}$`));
    // The Plan view says it is an undo, and of what, where its title is read.
    const planView = (await features()).members.plan.view.view;
    assert.equal(planView.description, undo?.plan.title);
    assert.ok((planView.message ?? '').startsWith(`${undo?.plan.title ?? ''}.`), planView.message);
    await apply();
    assert.deepEqual(await state(names[1] ?? ''), before[1], `${names[1]} is back, every group included`);
    assert.equal((await state(names[0] ?? '')).enabled, false, 'the others are still offboarded');

    // "undone for 1 of 3": the other two are still offered, the one put back is not.
    const second = await history({ 'plan.history.pick': isOffboard, 'plan.history.members': (() => true) as never });
    assert.match(asked(second, 'plan.history.pick'), /undone for 1 of 3/);
    assert.doesNotMatch(asked(second, 'plan.history.pick'), /1 members/);
    assert.deepEqual(second.asked.find((q) => q.id === 'plan.history.members')?.items, [names[0], names[2]]);
    await apply();
    assert.deepEqual(await Promise.all(names.map(state)), before, 'all three are back');
    const third = await history({ 'plan.history.pick': 0 });
    assert.ok(third.asked.find((q) => q.id === 'plan.history.pick')?.texts.some((t) => t.includes(title)));
    (await features()).members.plan.store.clear();
  });

  it('Undo Last Change… names the change before opening it, and says which newer change it goes past', async () => {
    const [older, ...rows] = await leavers(3, 3);
    assert.ok(older);
    // An older change, left as it is: what Undo Last offers once the newer one is undone.
    await withUi({}, () => vscode.commands.executeCommand('portal.member.disable', older.node));
    await withUi({ 'members.bulk.confirm': true }, () => onSelection('portal.member.disable', rows));
    const ui = await withUi({ 'plan.undoLast.confirm': true }, async (u) => {
      await vscode.commands.executeCommand('portal.plan.undoLastApply');
      return u;
    });
    assert.match(asked(ui, 'plan.undoLast.confirm'), /^Undo "Disable 2 members" \(.*\)\?/);
    assert.match((await features()).members.plan.store.plan?.plan.title ?? '', /^Undo "Disable 2 members"/);
    await apply();
    for (const r of rows) assert.equal((await member(username(r))).user.enabled, true);

    // The newest change is now that undo: Undo Last says it goes past it, and names the one it would undo.
    const again = await withUi({ 'plan.undoLast.confirm': false }, async (u) => {
      await vscode.commands.executeCommand('portal.plan.undoLastApply');
      return u;
    });
    const text = asked(again, 'plan.undoLast.confirm');
    assert.match(text, /It is not the newest change: 2 newer changes cannot be undone\./);
    assert.match(text, /"Undo "Disable 2 members"" \(.*\): an undo itself/);
    assert.match(text, /"Disable 2 members" \(.*\): undone already/);
    assert.match(text, new RegExp(`^Undo "Disable ${username(older)}" \\(`), 'the older change is the one offered');
    await portalJson(p.emu.url, p.token, 'PATCH', `/v3/accounts/1/members/${username(older)}`, { enabled: true });
  });

  it('Remove from All Groups… takes one member out of every group, and nothing else', async () => {
    const [row] = await leavers(6, 1);
    assert.ok(row);
    const before = await state(username(row));
    const ui = await withUi({ 'plan.apply.confirm': true }, async (u) => {
      await vscode.commands.executeCommand('portal.members.removeFromAllGroups', row.node);
      return u;
    });
    const n = Object.keys(before.groups).length;
    assert.match(asked(ui, 'plan.apply.confirm'), new RegExp(`Remove from ${n} group place`));
    assert.deepEqual(await state(username(row)), { ...before, groups: {} });
  });

  it('Offboard These People… on a list of leavers: matched by e-mail, tagged with the month', async () => {
    const rows = await leavers(7, 2);
    const file = path.join(dir, 'leavers.csv');
    const emails = await Promise.all(
      rows.map(
        async (r) =>
          (
            await portalJson<{ user: { email: string } }>(
              p.emu.url,
              p.token,
              'GET',
              `/v3/accounts/1/members/${username(r)}`,
            )
          ).body.user.email,
      ),
    );
    fs.writeFileSync(
      file,
      ['Name,Email', ...emails.map((e, i) => `Leaver ${i},${e}`), 'Nobody,nobody@nowhere.example', ''].join('\n'),
    );
    const doc = await vscode.workspace.openTextDocument(file);
    await vscode.window.showTextDocument(doc);
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri);
    const lens = lenses.find((l) => l.command?.title === 'Offboard These People…');
    assert.ok(lens?.command, `the list has the lens: ${lenses.map((l) => l.command?.title).join(', ')}`);
    const now = new Date();
    const tag = `left-${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}`;
    const ui = await withUi(
      {
        'members.offboard.options': ((v: string) => v === 'tag') as never,
        'members.offboard.tag': tag,
        'plan.apply.confirm': true,
      },
      async (u) => {
        await vscode.commands.executeCommand(lens.command?.command ?? '', ...(lens.command?.arguments ?? []));
        return u;
      },
    );
    assert.ok(
      ui.told.some((t) =>
        /1 person on the list is not a member of Acme Corporation: nobody@nowhere\.example/.test(visible(t.text)),
      ),
    );
    for (const r of rows) {
      const s = await state(username(r));
      assert.equal(s.enabled, false);
      assert.deepEqual(s.groups, {});
      assert.ok(s.tags.includes(tag), `${username(r)} tagged ${tag}`);
    }
  });

  it('the export asks what to export before where; Plan Changes… asks about absent members only when there are some', async () => {
    const file = path.join(dir, 'acme.csv');
    const ui = await withUi({ 'members.export.groups': 'Members only', 'members.export.file': file }, async (u) => {
      await vscode.commands.executeCommand('portal.members.exportCsv');
      return u;
    });
    assert.deepEqual(ui.questions, ['members.export.groups', 'members.export.file']);
    const doc = await vscode.workspace.openTextDocument(file);
    await vscode.window.showTextDocument(doc);
    const none = await withUi({}, async (u) => {
      await vscode.commands.executeCommand('portal.plan.planChanges');
      return u;
    });
    assert.deepEqual(none.questions, [], 'nobody is absent: no question');
    // One row fewer: one member is absent, and the question says how many.
    const lines = doc.getText().split(/\r?\n/);
    const edit = new vscode.WorkspaceEdit();
    edit.delete(doc.uri, new vscode.Range(lines.length - 3, 0, lines.length - 2, 0));
    await vscode.workspace.applyEdit(edit);
    await doc.save();
    const some = await withUi({ 'plan.absent': 'Leave them alone' }, async (u) => {
      await vscode.commands.executeCommand('portal.plan.planChanges');
      return u;
    });
    assert.match(asked(some, 'plan.absent'), /1 member of Acme Corporation is not in the file/);
    (await features()).members.plan.store.clear();
  });

  it("after a reload, an undo names the organisation its change was made in, which the change's journal keeps", async () => {
    const [row] = await leavers(0, 1);
    assert.ok(row);
    await withUi({}, () => vscode.commands.executeCommand('portal.member.disable', row.node));
    // As after a reload: the plan store knows no organisation's label (it keeps those it showed plans for only while
    // the window is open, and those of files planned, which this test takes away and gives back).
    const store = (await features()).members.plan.store as unknown as {
      shownLabels: Map<string, string>;
      memento: vscode.Memento;
      plan: { account: { label: string }; plan: { title?: string } } | undefined;
    };
    store.shownLabels.clear();
    const files = store.memento.get<unknown>(FILE_ACCOUNTS);
    await store.memento.update(FILE_ACCOUNTS, {});
    try {
      await withUi({ 'plan.undoLast.confirm': true }, () =>
        vscode.commands.executeCommand('portal.plan.undoLastApply'),
      );
      assert.match(store.plan?.plan.title ?? '', new RegExp(`^Undo "Disable ${username(row)}"`));
      assert.equal(store.plan?.account.label, 'Acme Corporation');
      await apply();
      assert.equal((await member(username(row))).user.enabled, true, 'the undo put the member back');
    } finally {
      await store.memento.update(FILE_ACCOUNTS, files);
      (await features()).members.plan.store.clear();
    }
  });
});
