// Import Members from a Spreadsheet… inside VS Code: HR's sheet in the editor gets the import's CodeLens and no
// problem; the import asks the mapping once (a name someone else holds on the portal numbered, and shown), writes
// a members file (0600) that Plan Changes… plans against the organisation without asking; next quarter's sheet
// with the same columns is imported with the saved mapping and no question. New Members File… opens an empty members
// file with the organisation's group columns.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { parseMembersFile, valueOf } from '../../../../../src/features/members/plan/core/file/membersFile';
import { startDemoPortal, stopDemoPortal, type DemoPortal } from '../../../support/demoPortal';
import { eventually } from '../../../support/membersFile';
import { features } from '../../../support/tree';
import { DISMISS, visible, withUi, type ScriptedUi } from '../../../support/ui';
import { portalApi } from '../../../support/extension';
import { writeSharedStringsBomb } from '../../../../unit/features/members/import/bombSheet';
import { tempDir } from '../../../../support/tempDir';
import { HEADER, MAPPING_ANSWERS } from '../../../support/hrSheet';

async function lensTitles(uri: vscode.Uri): Promise<string[]> {
  const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri);
  return lenses.map((l) => l.command?.title ?? '');
}

async function open(file: string, text: string): Promise<vscode.TextDocument> {
  fs.writeFileSync(file, text);
  const doc = await vscode.workspace.openTextDocument(file);
  await vscode.window.showTextDocument(doc);
  return doc;
}

describe('Members: import from a spreadsheet', function () {
  this.timeout(180_000);
  let p: DemoPortal;
  let dir: string;
  // Other suites may have portals signed in too: the question, when asked, picks this suite's.
  const ours = () => ({ 'pick.portal': ((id: unknown) => id === p.portalId) as never });

  before(async () => {
    dir = tempDir('portal-import-');
    p = await startDemoPortal();
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await stopDemoPortal(p);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a CSV that is not a members file gets the import’s CodeLens and no problem; a members file does not', async () => {
    const hr = await open(path.join(dir, 'lens-hr.csv'), `${HEADER}Ana,López,ana@acme.example,Admin!,soon\r\n`);
    await eventually(
      () => lensTitles(hr.uri),
      (t) => t.length > 0,
      'the sheet has its lens',
    );
    // A sheet of people with an e-mail column may be starters or leavers: both lenses, nothing else.
    assert.deepEqual((await lensTitles(hr.uri)).sort(), ['Import as Portal Members…', 'Offboard These People…']);
    const members = await open(path.join(dir, 'lens-members.csv'), 'username,name\r\nana,Ana\r\nbad name!,x\r\n');
    // The members file's diagnostics run: the one problem there shows that they would have run on the other too.
    await eventually(
      () => vscode.languages.getDiagnostics(members.uri),
      (d) => d.length > 0,
      'the members file has its problem',
    );
    assert.deepEqual(await lensTitles(members.uri), ['Plan Changes…']);
    assert.deepEqual(vscode.languages.getDiagnostics(hr.uri), []);
  });

  it('imports HR’s sheet once with the mapping, and next quarter’s sheet with no question', async () => {
    const rows = [
      'Ana,López,ana.lopez@acme.example,Engineering,05/01/2099',
      'Yara,Haddad,yara.other@acme.example,Employee Handbook,06/02/2099',
    ];
    await open(path.join(dir, 'hr-q1.csv'), `${HEADER}${rows.join('\r\n')}\r\n`);
    const first = await withUi(
      { ...MAPPING_ANSWERS, ...ours() },
      async (ui) => {
        await vscode.commands.executeCommand('portal.members.importSheet');
        return ui;
      },
      { allUsed: false },
    );
    const usernamesAsked = visible(first.asked.find((q) => q.id === 'import.usernames')?.texts.join('\n') ?? '');
    assert.match(usernamesAsked, /Taken on the portal by someone else: 1/);
    const written = path.join(dir, 'hr-q1.members.csv');
    assert.equal(fs.statSync(written).mode & 0o777, 0o600);
    const file = parseMembersFile(fs.readFileSync(written, 'utf8'));
    assert.deepEqual(
      file.rows.map((r) => [valueOf(file, r, 'username'), valueOf(file, r, 'activationDate')]),
      [
        ['ana.lopez', '2099-01-05'],
        ['yara.haddad2', '2099-02-06'],
      ],
    );
    assert.equal(valueOf(file, file.rows[1]!, 'group:handbook'), 'Standard');
    assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, written);
    const planned = (await features()).members.plan.store.accountOf(vscode.Uri.file(written));
    assert.deepEqual(planned && [planned.portalId, planned.accountId], [p.portalId, 1]);
    assert.ok(fs.existsSync(path.join(dir, 'hr-q1.portal-mapping.json')));

    // The saved label is anyone's text: the portal's own name for the organisation is used.
    const savedFile = path.join(dir, 'hr-q1.portal-mapping.json');
    const saved = JSON.parse(fs.readFileSync(savedFile, 'utf8')) as Record<string, unknown>;
    fs.writeFileSync(savedFile, JSON.stringify({ ...saved, accountLabel: 'Globex [x](command:evil)' }));
    await open(path.join(dir, 'hr-q2.csv'), `${HEADER}Gus,Lee,gus.lee@acme.example,Engineering,05/04/2099\r\n`);
    const second = await withUi({}, async (ui) => {
      await vscode.commands.executeCommand('portal.members.importSheet');
      return ui;
    });
    assert.deepEqual(
      second.asked.filter((q) => q.kind !== 'progress').map((q) => q.id),
      [],
    );
    assert.match(
      visible(second.told.at(-1)?.text ?? ''),
      /Imported with the mapping saved in hr-q1\.portal-mapping\.json: to change it, run Forget Saved Mapping and import again\./,
    );
    const nextAccount = (await features()).members.plan.store.accountOf(
      vscode.Uri.file(path.join(dir, 'hr-q2.members.csv')),
    );
    assert.equal(nextAccount?.label, 'Acme Corporation');
    const next = parseMembersFile(fs.readFileSync(path.join(dir, 'hr-q2.members.csv'), 'utf8'));
    assert.deepEqual(
      next.rows.map((r) => valueOf(next, r, 'activationDate')),
      ['2099-04-05'],
    );
  });

  it('sheet text reaches the mapping as plain text: no link, no icon', async () => {
    const hostile = '[open](command:workbench.action.openSettings) $(alert)';
    await open(path.join(dir, 'hostile.csv'), `First name,"${hostile}"\r\nAna,"${hostile}"\r\n`);
    const ui = await withUi(
      { 'pick.account': 'Acme Corporation', 'import.columns': DISMISS, ...ours() },
      async (u) => {
        await vscode.commands.executeCommand('portal.members.importSheet');
        return u;
      },
      { allUsed: false },
    );
    const texts = ui.asked.find((q) => q.id === 'import.columns')?.texts ?? [];
    assert.ok(
      texts.some((t) => visible(t).includes(hostile)),
      'the header and its value are shown',
    );
    assert.ok(
      texts.every((t) => !t.includes('](') && !t.includes('$(')),
      texts.join(' | '),
    );
  });

  it('a saved mapping that is not one is ignored: the mapping is asked again', async () => {
    fs.writeFileSync(
      path.join(dir, 'hr-q3.portal-mapping.json'),
      '{"kind":"portal-members-import-mapping","version":1}',
    );
    fs.rmSync(path.join(dir, 'hr-q1.portal-mapping.json'));
    fs.rmSync(path.join(dir, 'hr-q2.portal-mapping.json'));
    await open(path.join(dir, 'hr-q3.csv'), `${HEADER}Hana,Sato,hana.sato@acme.example,Engineering,05/04/2099\r\n`);
    const ui = await withUi(
      { ...MAPPING_ANSWERS, ...ours() },
      async (u) => {
        await vscode.commands.executeCommand('portal.members.importSheet');
        return u;
      },
      { allUsed: false },
    );
    assert.ok(ui.asked.some((q) => q.id === 'import.columns'));
  });

  it('Forget Saved Mapping removes the mappings that fit the sheet: the next import asks the mapping again', async () => {
    const here = folder('forget');
    const sheet = path.join(here, 'starters.csv');
    await open(sheet, `${HEADER}Ana,López,ana.lopez@acme.example,Engineering,05/01/2099\r\n`);
    await importing(MAPPING_ANSWERS);
    assert.ok(fs.existsSync(path.join(here, 'starters.portal-mapping.json')));
    fs.copyFileSync(path.join(here, 'starters.portal-mapping.json'), path.join(here, 'older.portal-mapping.json'));
    await vscode.window.showTextDocument(vscode.Uri.file(sheet));
    const forget = await withUi({ 'import.forget': true }, async (ui) => {
      await vscode.commands.executeCommand('portal.members.forgetMapping');
      return ui;
    });
    assert.match(visible(forget.asked[0]?.texts[0] ?? ''), /^Forget 2 saved mappings that fit starters\.csv\?/);
    assert.deepEqual(
      fs.readdirSync(here).filter((n) => n.endsWith('.portal-mapping.json')),
      [],
    );
    await vscode.window.showTextDocument(vscode.Uri.file(sheet));
    const again = await importing({ ...MAPPING_ANSWERS, 'import.replace': true });
    assert.ok(
      again.asked.some((q) => q.id === 'import.columns'),
      'the mapping is asked again',
    );
  });

  it('with no organisation in the Members view, the organisation is asked under the command’s title', async () => {
    (await features()).members.provider.show(undefined);
    const here = folder('no-view');
    await open(path.join(here, 'starters.csv'), `${HEADER}Ana,López,ana.lopez@acme.example,Engineering,05/01/2099\r\n`);
    const ui = await importing({ 'pick.account': 'Acme Corporation', 'import.columns': DISMISS });
    const account = ui.asked.find((q) => q.id === 'pick.account');
    assert.ok(account, `the organisation is asked: ${ui.questions.join(', ')}`);
    assert.equal(account.title, 'Import Members from a Spreadsheet');
  });

  it('the organisation comes from the Members view, every question has a title, and the file gets no export advice', async () => {
    const t = await features();
    t.members.show({ kind: 'account', portalId: p.portalId, accountId: 1, label: 'Acme Corporation' });
    const here = folder('from-view');
    await open(path.join(here, 'starters.csv'), `${HEADER}Ana,López,ana.lopez@acme.example,Engineering,05/01/2099\r\n`);
    const ui = await withUi(
      MAPPING_ANSWERS,
      async (u) => {
        await vscode.commands.executeCommand('portal.members.importSheet');
        return u;
      },
      { allUsed: false },
    );
    assert.deepEqual(errors(ui), []);
    assert.ok(!ui.asked.some((q) => q.id === 'pick.account' || q.id === 'pick.portal'), ui.questions.join(', '));
    const untitled = ui.asked.filter((q) => q.kind !== 'progress' && q.kind !== 'confirm' && !q.title);
    assert.deepEqual(
      untitled.map((q) => q.id),
      [],
      'every question has a title',
    );
    const doc = await vscode.workspace.openTextDocument(path.join(here, 'starters.members.csv'));
    const problems = await t.members.plan.diagnostics.check(doc);
    assert.deepEqual(
      problems.filter((d) => /lastModified/.test(d.message)).map((d) => d.message),
      [],
      'the import wrote this file from the portal just read: no export to take again',
    );
  });

  it('New Members File… writes a members file (0600) with the organisation’s group columns and opens it', async () => {
    const file = path.join(dir, 'new-members.csv');
    await withUi(
      { 'pick.account': 'Acme Corporation', 'members.newFile': file, ...ours() },
      () => vscode.commands.executeCommand('portal.members.newMembersFile'),
      { allUsed: false },
    );
    const doc = vscode.window.activeTextEditor?.document;
    assert.equal(doc?.uri.fsPath, file);
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    assert.match(doc.getText(), /^username,name,email,jobTitle,activationDate,group:engineering,.*group:handbook/);
    await eventually(
      () => lensTitles(doc.uri),
      (t) => t.length > 0,
      'the new file has its lens',
    );
    assert.deepEqual(await lensTitles(doc.uri), ['Plan Changes…']);
    const planned = (await features()).members.plan.store.accountOf(doc.uri);
    assert.equal(planned?.accountId, 1);
  });

  /** A folder of its own for a test, so no mapping another test saved is found beside its sheet. */
  const folder = (name: string): string => {
    const f = path.join(dir, name);
    fs.mkdirSync(f, { recursive: true });
    return f;
  };
  const importing = (answers: Record<string, unknown>): Promise<ScriptedUi> =>
    withUi(
      { ...answers, ...ours() } as never,
      async (ui) => {
        await vscode.commands.executeCommand('portal.members.importSheet');
        return ui;
      },
      { allUsed: false },
    );
  const errors = (ui: ScriptedUi): string[] =>
    ui.told.filter((t) => t.severity === 'error').map((t) => visible(t.text));

  it('CSV that is no sheet of people (no e-mail, no name) gets no import lens', async () => {
    const doc = await open(path.join(folder('lens-data'), 'prices.csv'), 'sku,price,stock\r\nA1,2.50,3\r\n');
    const people = await open(path.join(folder('lens-data'), 'people.csv'), 'Email,Team\r\na@x.example,Ops\r\n');
    await eventually(
      () => lensTitles(people.uri),
      (t) => t.length > 0,
      'the sheet of people has its lens',
    );
    assert.deepEqual(await lensTitles(doc.uri), []);
  });

  it('an import whose mapping path is a link to a file outside the workspace refuses, and the file is untouched', async () => {
    const outside = path.join(tempDir('portal-outside-'), '.bashrc');
    fs.writeFileSync(outside, 'export PATH=$PATH\n', { mode: 0o644 });
    const here = folder('link-mapping');
    fs.symlinkSync(outside, path.join(here, 'starters.portal-mapping.json'));
    await open(path.join(here, 'starters.csv'), `${HEADER}Ana,López,ana.lopez@acme.example,Engineering,05/01/2099\r\n`);
    const ui = await importing(MAPPING_ANSWERS);
    assert.equal(errors(ui).length, 1, errors(ui).join(' | '));
    assert.match(errors(ui)[0] ?? '', /starters\.portal-mapping\.json is a symbolic link/);
    assert.equal(fs.readFileSync(outside, 'utf8'), 'export PATH=$PATH\n');
    assert.equal(fs.statSync(outside).mode & 0o777, 0o644);
    assert.ok(!fs.existsSync(path.join(here, 'starters.members.csv')), 'no members file was written');
  });

  it('the members file after "Replace?" is never written through a link', async () => {
    const outside = path.join(tempDir('portal-outside-'), 'profile');
    fs.writeFileSync(outside, 'keep me\n');
    const here = folder('link-members');
    fs.symlinkSync(outside, path.join(here, 'starters.members.csv'));
    await open(path.join(here, 'starters.csv'), `${HEADER}Ana,López,ana.lopez@acme.example,Engineering,05/01/2099\r\n`);
    const ui = await importing({ ...MAPPING_ANSWERS, 'import.replace': true });
    assert.equal(errors(ui).length, 1, errors(ui).join(' | '));
    assert.match(errors(ui)[0] ?? '', /starters\.members\.csv is a symbolic link/);
    assert.equal(fs.readFileSync(outside, 'utf8'), 'keep me\n');
    assert.ok(fs.lstatSync(path.join(here, 'starters.members.csv')).isSymbolicLink());
  });

  it('a shared-strings bomb ends with one message and leaves no temporary file', async () => {
    const here = folder('bomb');
    const file = path.join(here, 'bomb.xlsx');
    writeSharedStringsBomb(file, 1600);
    await vscode.commands.executeCommand('vscode.open', vscode.Uri.file(file));
    const ui = await importing({});
    assert.equal(errors(ui).length, 1, errors(ui).join(' | '));
    assert.match(errors(ui)[0] ?? '', /was not read/);
    assert.deepEqual(ui.questions, [], 'nothing was asked');
    const temp = path.join((await portalApi()).testing.members.plan.storage, 'import-temp');
    assert.deepEqual(fs.existsSync(temp) ? fs.readdirSync(temp) : [], []);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('a member already there keeps every group the sheet does not map: no removal or lowering, and the message says so', async () => {
    // Mia (member) is in Engineering (Standard), Marketing (Basic) and Social Club (Administrator); the sheet puts
    // her in Social Club, which the table maps at Standard, beside a starter in Marketing.
    const here = folder('existing');
    // Usernames from the e-mail's local part: Mia's is `member`, as on the portal.
    const sheet = `${HEADER}Mia,Member,member@acme.example,Social Club,\r\nZoe,Starter,zoe.starter@acme.example,Marketing,05/01/2099\r\n`;
    await open(path.join(here, 'starters.csv'), sheet);
    const ui = await importing({ ...MAPPING_ANSWERS, 'import.usernames': "The e-mail's local part" });
    assert.deepEqual(errors(ui), []);
    const told = ui.told.map((t) => visible(t.text)).join(' | ');
    assert.match(told, /Members already: 1; the file changes none of them, and keeps every group they are in\./);
    const written = path.join(here, 'starters.members.csv');
    const doc = await vscode.workspace.openTextDocument(written);
    await withUi({ 'plan.absent': 'Leave them alone' } as never, async () => {
      await vscode.window.showTextDocument(doc);
      await vscode.commands.executeCommand('portal.plan.planChanges');
    });
    const shown = (await features()).members.plan.store.plan;
    assert.ok(shown, 'the plan is shown');
    const mia = shown.plan.groupChanges.filter((c) => c.username === 'member');
    assert.deepEqual(mia, [], JSON.stringify(mia));
    assert.deepEqual(
      shown.plan.absent.map((c) => c.username),
      [],
    );
    assert.deepEqual(
      shown.plan.newMembers.map((c) => c.username),
      ['zoe.starter'],
    );
    await withUi({ 'plan.apply.confirm': true }, () => vscode.commands.executeCommand('portal.plan.apply'), {
      allUsed: false,
    });
    const report = vscode.window.activeTextEditor?.document;
    assert.ok(report, 'the report is open');
    assert.match(path.basename(report.uri.fsPath), /^apply-\d{4}-\d{2}-\d{2}-\d{4}(-[0-9a-f]{8})?\.csv$/);
    assert.match(report.getText(), /^\uFEFF?row,username,action,result,message/);
    // The lens providers have had their turn once the members file's lens shows on the members file.
    await eventually(
      () => lensTitles(doc.uri),
      (titles) => titles.length > 0,
      'the members file has its lens',
    );
    assert.deepEqual(await lensTitles(report.uri), [], 'the report is no sheet to import');
  });
});
