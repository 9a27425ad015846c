// The plan is the whole truth inside VS Code: a row in error is listed in the Plan view with its problem and
// line, a new Super administrator is marked as an elevation and named in the Apply confirmation, an edit of the file
// makes the plan out of date and Apply refuses it, unknown groups are reported as the file is typed (before any
// plan), and the access matrix's CSV export is not taken for a members file. Checked on the portal over HTTP.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { type DemoPortal } from '../../../support/demoPortal';
import { appendRow, eventually, setCell } from '../../../support/membersFile';
import { portalJson } from '../../../support/portalHttp';
import { derivedPlan, type CreateChange } from '../../../../../src/engine/members/model';
import { SECTION_ROWS } from '../../../../../src/features/members/plan/planView';
import { features } from '../../../support/tree';
import { acmeOf, exportWithGroups, useAcmeMembers } from '../../../support/membersView';
import { visible, withUi, type ScriptedUi } from '../../../support/ui';

const told = (ui: ScriptedUi): string[] => ui.told.map((t) => visible(t.text));
const asked = (ui: ScriptedUi, id: string): string =>
  visible(ui.asked.find((q) => q.id === id)?.texts.join('\n') ?? '');

async function plan() {
  return (await features()).members.plan;
}

describe('Members: the plan is the whole truth', function () {
  this.timeout(270_000);
  let p: DemoPortal;
  let dir: string;
  const acme = () => acmeOf(p.portalId);
  const status = async (name: string): Promise<number> =>
    (await portalJson(p.emu.url, p.token, 'GET', `/v3/accounts/1/members/${name}`)).status;
  const exportFile = async (name: string): Promise<vscode.TextDocument> => (await exportWithGroups(dir, name)).doc;
  const planChanges = (doc: vscode.TextDocument) =>
    withUi(
      { 'plan.absent': 'Leave them alone' } as never,
      async (ui) => {
        await vscode.window.showTextDocument(doc);
        await vscode.commands.executeCommand('portal.plan.planChanges');
        return ui;
      },
      // Asked only when some member is absent from the file.
      { allUsed: false },
    );
  const apply = (answers: Record<string, unknown>) =>
    withUi(answers as never, async (ui) => {
      await vscode.commands.executeCommand('portal.plan.apply');
      return ui;
    });

  useAcmeMembers('portal-truth-', { profile: 'default' }, (s) => ({ p, dir } = s));

  it('reports an unknown group as the file is typed, before any plan', async () => {
    const doc = await exportFile('typed.csv');
    const edit = new vscode.WorkspaceEdit();
    edit.insert(doc.uri, doc.lineAt(0).range.end, ',group:nowhere');
    assert.ok(await vscode.workspace.applyEdit(edit));
    const problems = await eventually(
      () => vscode.languages.getDiagnostics(doc.uri),
      (d) => d.some((x) => x.code === 'unknown-group'),
      'the unknown group is reported',
    );
    assert.match(problems.find((x) => x.code === 'unknown-group')?.message ?? '', /no group named "nowhere"/);
    assert.equal((await plan()).store.stateOf(doc.uri), undefined, 'no plan was made');
  });

  it("a members file of a megabyte is checked in slices: the editor's event loop turns while it is checked", async () => {
    const file = path.join(dir, 'megabyte.csv');
    const rows = Array.from({ length: 30_000 }, (_, i) => `bulk.${i},Bulk ${i},bulk.${i}@example.com,\r\n`);
    fs.writeFileSync(file, `username,name,email,tags\r\n${rows.join('')}bad.one,Bad,not-an-address,\r\n`);
    const doc = await vscode.workspace.openTextDocument(file);
    assert.ok(doc.getText().length > 1_000_000);
    let turns = 0;
    let checking = true;
    const turn = (): void => {
      turns++;
      if (checking) setImmediate(turn);
    };
    setImmediate(turn);
    const problems = await (await plan()).diagnostics.check(doc);
    checking = false;
    assert.ok(turns > 10, `the event loop turned ${turns} times while the file was checked`);
    assert.deepEqual(
      problems.filter((d) => d.severity === vscode.DiagnosticSeverity.Error).map((d) => [d.range.start.line, d.code]),
      [[30_001, 'bad-email']],
      'the whole file was checked, to its last row',
    );
  });

  it("the access matrix's CSV export gets no problems and no Plan Changes… lens", async () => {
    const file = path.join(dir, 'matrix.csv');
    fs.writeFileSync(file, '\uFEFFUsername,Name,E-mail,Tags,Engineering\r\nann,Ann,,x,Administrator\r\n');
    const doc = await vscode.workspace.openTextDocument(file);
    await vscode.window.showTextDocument(doc);
    assert.deepEqual(await (await plan()).diagnostics.check(doc), []);
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri);
    assert.deepEqual(
      lenses.filter((l) => l.command?.command === 'portal.plan.planChanges'),
      [],
    );
  });

  it('lists a row in error, marks a new Super administrator, and the confirmation counts and names both', async () => {
    const doc = await exportFile('truth.csv');
    await appendRow(doc, {
      username: 'sam.starter',
      name: 'Sam Starter',
      email: 'sam@attacker.example',
      accountPermission: 'Super administrator',
      'group:engineering': 'Administrator',
    });
    await appendRow(doc, { username: 'bad.row', name: 'Bad Row', email: 'not-an-address' });
    await planChanges(doc);
    const { view, store } = await plan();
    const sections = view.getChildren();
    const skipped = sections.find((n) => n.kind === 'section' && n.key === 'skipped');
    assert.ok(skipped, 'a section of rows not planned');
    const [row] = view.getChildren(skipped);
    assert.ok(row);
    const item = view.getTreeItem(row);
    assert.equal(item.label, 'bad.row');
    assert.match(String(item.description), /^line \d+: "not-an-address" is not an e-mail address/);
    assert.equal(item.command?.command, 'vscode.open');
    const created = view.getChildren(sections.find((n) => n.kind === 'section' && n.key === 'new'));
    const sam = view.getTreeItem(created[0]!);
    assert.match(String(sam.description), /ELEVATION, grants Super administrator, Administrator of the group/);
    assert.match(String(sam.description), /Super administrator; groups: .*\(Administrator\)/);
    assert.match(view.view.message ?? '', /NOT PLANNED: 1/);
    const ui = await apply({ 'plan.apply.confirm': false });
    const confirm = asked(ui, 'plan.apply.confirm');
    assert.match(confirm, /Rows of the file NOT planned \(see the Plan view\): 1/);
    assert.match(confirm, /Changes that grant more power: 1\n\s+sam\.starter: Super administrator/);
    assert.ok(store.plan, 'the plan is still on show');
  });

  it('an edit makes the plan out of date: Apply refuses it, and a new plan applies', async () => {
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.fsPath.endsWith('truth.csv'));
    assert.ok(doc);
    await setCell(doc, 'bad.row', 'email', 'bad.row@acme.example');
    const { store, view } = await plan();
    assert.equal(store.plan?.stale, true);
    assert.match(view.view.message ?? '', /OUT OF DATE/);
    const refused = await apply({});
    assert.ok(
      told(refused).some((t) => /The file changed after this plan was made/.test(t)),
      told(refused).join('\n'),
    );
    assert.equal(await status('sam.starter'), 404, 'nothing was sent');
    await planChanges(doc);
    assert.equal(store.plan?.plan.skipped?.length, 0);
    await apply({ 'plan.apply.confirm': true });
    assert.equal(await status('sam.starter'), 200);
    assert.equal(await status('bad.row'), 200);
  });

  it("a plan of a great many changes lists a section's first rows, every elevation among them, and counts the rest", async () => {
    const { view, store } = await plan();
    const spec = (username: string, accountPermission: number): CreateChange => ({
      kind: 'create',
      id: `${username}#create`,
      username,
      row: undefined,
      member: {
        username,
        name: username,
        email: `${username}@example.com`,
        jobTitle: null,
        enabled: true,
        locked: false,
        accountPermission,
        tags: [],
        groups: new Map(),
        activationDate: undefined,
      },
    });
    const total = SECTION_ROWS + 500;
    const late = SECTION_ROWS + 300;
    const newMembers = Array.from({ length: total }, (_, i) => spec(`many.${i}`, i === late ? 16 : 1));
    store.show(
      { ...derivedPlan({ accountId: 1, groups: [], origin: 'file', createdAt: Date.now() }, { newMembers }) },
      acme(),
      undefined,
    );
    try {
      const section = view.getChildren().find((n) => n.kind === 'section' && n.key === 'new');
      assert.ok(section);
      const rows = view.getChildren(section);
      assert.equal(rows.length, SECTION_ROWS + 1, 'the first rows and one more row');
      const last = rows[rows.length - 1];
      assert.ok(last?.kind === 'more' && last.hidden === 500, 'the last row counts the rest');
      assert.match(String(view.getTreeItem(last).label), /… and 500 more, not listed here/);
      const names = rows.flatMap((r) => (r.kind === 'change' ? [r.change.username] : []));
      assert.ok(names.includes(`many.${late}`), 'the elevation past the first rows is listed');
      assert.ok(!names.includes(`many.${SECTION_ROWS - 1}`), 'a plain row made room for it');
      assert.match(
        view.view.message ?? '',
        new RegExp(`${total.toLocaleString('en')} of ${total.toLocaleString('en')}|${total} of ${total}`),
      );
      assert.match(view.view.message ?? '', /Changes that grant more power: 1\./);
    } finally {
      store.clear();
    }
  });
});
