// The views, commands and forms against a portal whose every string is an attack: command links, icon syntax,
// markup, bidi controls, and names such as "constructor", "..", "__proto__" and "CON .txt".
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { isPlain, plain } from '../../../../../src/shared/plainText';
import type { FormPanel } from '../../../../../src/forms/formPanel';
import type { FileRef } from '../../../../../src/shared/refs';
import type { AssignmentsState } from '../../../../../src/features/members/forms/assignments/assignments.protocol';
import { parse } from 'csv-parse/sync';
import {
  FORMULA_NAMES,
  FSMONITOR_MARKER,
  HOSTILE_PAYLOADS,
  LONG_NAME,
  TOOL_FOLDER_GROUP,
} from '../../../../emulator/seeds/hostile-payloads';
import { startDemoPortal, stopDemoPortal, type DemoPortal } from '../../../support/demoPortal';
import { portalApi } from '../../../support/extension';
import { openForm } from '../../../support/forms';
import { portalJson } from '../../../support/portalHttp';
import { features, loadAll, portalRow, rows, tooltipOf, type Provider, type Row } from '../../../support/tree';
import { DISMISS, visible, withUi, type ScriptedUi } from '../../../support/ui';
import { tempDir } from '../../../../support/tempDir';

/** Every entry below `dir`, relative, "/"-separated, folders ending in "/". */
function tree(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .map((d) => {
      const rel = path.relative(dir, path.join(d.parentPath, d.name)).split(path.sep).join('/');
      return d.isDirectory() ? `${rel}/` : rel;
    })
    .sort();
}

function row(list: Row[], label: string): Row {
  const found = list.find((r) => visible(r.label) === label);
  if (!found) throw new Error(`no row "${label}" among: ${list.map((r) => visible(r.label)).join(' | ')}`);
  return found;
}

/** Every text a row shows, label, description and tooltip, is plain. */
async function assertPlainRow(provider: Provider, r: Row): Promise<void> {
  for (const [what, text] of [
    ['label', r.label],
    ['description', r.description],
    ['tooltip', await tooltipOf(provider, r)],
  ] as const) {
    assert.ok(isPlain(text), `${what} of "${visible(r.label)}" carries live syntax: ${JSON.stringify(text)}`);
  }
}

/** Every text the extension gave the Ui (questions, their items, messages, progress) is plain. */
function assertPlainUi(ui: ScriptedUi): void {
  for (const q of ui.asked) for (const t of q.texts) assert.ok(isPlain(t), `${q.id}: ${JSON.stringify(t)}`);
  for (const n of ui.told) assert.ok(isPlain(n.text), `${n.severity}: ${n.text}`);
}

describe('A hostile portal: every server string is an attack', function () {
  this.timeout(270_000);
  let p: DemoPortal;
  let explorer: Provider;
  const tmp = tempDir('portal-hostile-');

  const mainAccount = () => ({ kind: 'account' as const, portalId: p.portalId, accountId: 1, label: 'constructor' });
  /** A member's row in the Members view of the main organisation, by username. */
  const memberRow = async (username: string): Promise<Row | undefined> => {
    const t = await features();
    t.members.show(mainAccount());
    const all = await loadAll(t.members.provider as unknown as Provider, undefined, 'portal.members.loadMore');
    return all.find((r) => r.description.startsWith(`${username} ·`));
  };

  before(async () => {
    p = await startDemoPortal({ seed: 'hostile' });
    explorer = (await features()).explorer.provider as unknown as Provider;
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const panel of (await portalApi()).testing.forms.panels()) panel.dispose();
    await stopDemoPortal(p);
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('the Explorer shows every account, group, folder and file record as plain text, at every level', async () => {
    const portal = await portalRow(explorer, p.portalId);
    const accounts = await rows(explorer, portal.node);
    assert.equal(accounts.length, 2);
    let checked = 0;
    const queue: Row[] = [...accounts];
    for (let i = 0; i < queue.length && i < 400; i++) {
      const r = queue[i]!;
      await assertPlainRow(explorer, r);
      checked++;
      if (
        r.collapsible &&
        (r.contextValue.startsWith('account') || r.contextValue === 'group' || r.contextValue === 'folder')
      ) {
        queue.push(...(await rows(explorer, r.node)).filter((c) => c.contextValue !== 'loadMore'));
      }
    }
    assert.ok(checked > 40, `${checked} rows checked`);
    const groups = await rows(explorer, accounts.find((a) => a.id.endsWith('/a:1'))!.node);
    for (const name of ['constructor', '..', '__proto__', 'toString', '.', 'CON']) {
      assert.ok(
        groups.some((g) =>
          g.id.endsWith(`/g:${101 + ['constructor', '..', '__proto__', 'toString', '.', 'CON'].indexOf(name)}`),
        ),
        `group ${name} is listed`,
      );
    }
    assert.ok(
      !queue.some((r) => r.contextValue.startsWith('error')),
      queue
        .filter((r) => r.contextValue.startsWith('error'))
        .map((r) => r.label)
        .join('\n'),
    );
  });

  it('the Members and Applications views show server text as plain text', async () => {
    const t = await features();
    const provider = t.members.provider as unknown as Provider;
    t.members.show(mainAccount());
    const members = await rows(provider);
    assert.ok(members.length > 3, members.map((r) => r.label).join('\n'));
    for (const r of members) await assertPlainRow(provider, r);
    // The second organisation answers ten times the rows asked for: refused, and said so in one plain row.
    t.members.show({ kind: 'account', portalId: p.portalId, accountId: 2, label: 'con' });
    const refused = await rows(provider);
    assert.deepEqual(
      refused.map((r) => r.contextValue),
      ['error'],
      refused.map((r) => r.label).join(' | '),
    );
    assert.match(visible(refused[0]?.label ?? ''), /sent \d+ rows for a page of \d+/);
    await assertPlainRow(provider, refused[0]!);
    const applications = t.applications.provider as unknown as Provider;
    const portal = (await rows(applications)).find((r) => r.id.endsWith(p.portalId));
    assert.ok(portal);
    const apps = await rows(applications, portal.node);
    assert.ok(
      apps.some((a) => a.id.endsWith('/app:constructor')) && apps.some((a) => a.id.endsWith('/app:__proto__')),
      apps.map((a) => a.id).join(),
    );
    for (const r of apps) await assertPlainRow(applications, r);
    const proto = apps.find((a) => a.id.endsWith('/app:__proto__'))!;
    await vscode.commands.executeCommand('portal.application.details', proto.node);
    const text = vscode.window.activeTextEditor?.document.getText() ?? '';
    assert.match(text, /\*\*Client id:\*\* \S*_proto\S*$/m);
    // Markdown escapes the brackets, so "\[Run\](command:…)" reads as text, not as a link, in the preview too.
    assert.ok(text.includes('\\[Run\\](command:'), 'the server text is there, escaped');
    assert.ok(!/(?<!\\)\]\(command:/.test(text), 'no live command link in the document');
  });

  it('a member named like markup keeps the name as text: the Members row, the Assignments form and its title', async () => {
    const server = await portalJson<{ user: { name: string } }>(
      p.emu.url,
      p.token,
      'GET',
      '/v3/accounts/1/members/payload.htmlimg',
    );
    const name = server.body.user.name;
    assert.ok(name.startsWith(`htmlImg ${HOSTILE_PAYLOADS.htmlImg}`), name);
    const member = await memberRow('payload.htmlimg');
    assert.ok(member, 'the member is listed');
    assert.equal(member.label, plain(name), 'the row shows the name, markup included, as text');
    assert.ok(member.label.includes(HOSTILE_PAYLOADS.htmlImg));
    const panel = await openForm<FormPanel<AssignmentsState>>('portal.editMemberAssignments', member.node);
    const state = await panel.whenLoaded();
    assert.equal(state.memberName, name, 'the form gets the name as data');
    assert.ok(
      panel.panel.title.startsWith(`Assignments: htmlImg ${HOSTILE_PAYLOADS.htmlImg}`),
      `the title shows the name as text: ${panel.panel.title}`,
    );
    panel.dispose();
  });

  it('an error whose message carries a command link reaches the user as plain text', async () => {
    const trap = await memberRow('trap.member');
    assert.ok(trap, 'the trap member is listed');
    const answers = { 'member.delete.confirm': true, 'member.delete.typeUsername': 'trap.member' };
    const ui = await withUi(answers, async (scripted) => {
      await vscode.commands.executeCommand('portal.member.delete', trap.node);
      return scripted;
    });
    const error = ui.told.find((n) => n.severity === 'error');
    assert.ok(error, JSON.stringify(ui.told));
    assert.match(
      visible(error.text),
      /Denied \[Fix\]\(command:workbench\.action\.openSettings\)/,
      "the server's words are kept, as text",
    );
    assertPlainUi(ui);
  });

  it('quick picks and input boxes built from hostile names carry no link, icon or bidi syntax', async () => {
    const ui = await withUi(
      {
        'pick.portal': (id: string) => id === p.portalId,
        'pick.account': (a: { accountId: number }) => a.accountId === 1,
        'pick.group': DISMISS,
        'group.duplicate.name': DISMISS,
      },
      async (scripted) => {
        await vscode.commands.executeCommand('portal.editGroup');
        const portal = await portalRow(explorer, p.portalId);
        const account = (await rows(explorer, portal.node)).find((a) => a.id.endsWith('/a:1'))!;
        const group = (await rows(explorer, account.node)).find((g) => g.id.endsWith('/g:101'))!;
        await vscode.commands.executeCommand('portal.group.duplicate', group.node);
        return scripted;
      },
      { allUsed: false },
    );
    const groups = ui.asked.find((q) => q.id === 'pick.group');
    assert.ok(groups && (groups.items?.length ?? 0) > 3, 'the group pick listed the hostile groups');
    assert.ok(
      groups.texts.some((t) => visible(t).includes('$(')),
      'the hostile names are there, as text',
    );
    assert.ok(
      ui.asked.some((q) => q.id === 'group.duplicate.name'),
      'the input box was asked',
    );
    assertPlainUi(ui);
  });

  it('group maps keyed by "constructor" and "__proto__" read the member\'s real permissions', async () => {
    const detail = await portalJson<{ groups: Record<string, number> }>(
      p.emu.url,
      p.token,
      'GET',
      '/v2/accounts/1/members/demo',
    );
    assert.ok(
      Object.hasOwn(detail.body.groups, 'constructor') && Object.hasOwn(detail.body.groups, '__proto__'),
      JSON.stringify(detail.body.groups),
    );
    const demo = await memberRow('demo');
    assert.ok(demo, 'the demo user is listed');
    const panel = await openForm<FormPanel<AssignmentsState>>('portal.editMemberAssignments', demo.node);
    const state = await panel.whenLoaded();
    const byName = new Map(state.groups.map((g) => [g.name, g.id]));
    for (const name of ['constructor', '__proto__', 'toString']) {
      const id = byName.get(name);
      assert.ok(id, `${name} is in the form`);
      const expected = detail.body.groups[name] ?? 0;
      assert.equal(
        state.values.groups.find((g) => g.id === id)?.permission,
        expected >= 16 ? 16 : expected >= 4 ? 4 : expected >= 1 ? 1 : 0,
        name,
      );
    }
    panel.dispose();
  });

  it('file records named "..", "CON .txt" and 300 bytes long open, and download under safe local names', async () => {
    const portal = await portalRow(explorer, p.portalId);
    const account = (await rows(explorer, portal.node)).find((a) => a.id.endsWith('/a:1'))!;
    const group = (await rows(explorer, account.node)).find((g) => g.id.endsWith('/g:101'))!;
    const root = await rows(explorer, group.node);
    const long = row(root, LONG_NAME);
    await vscode.commands.executeCommand('portal.file.openRecord', long.node);
    const page = (await features()).forms.panels().find((p) => p.kind === 'record');
    assert.ok(page, 'the record page opened');
    assert.match(((await page.whenLoaded()) as { title: string }).title, /^名+ab\.txt$/);
    page.dispose();
    const download = (node: unknown) =>
      withUi({ 'download.folder': tmp }, () =>
        Promise.resolve(vscode.commands.executeCommand<vscode.Uri | undefined>('portal.file.download', node)),
      );
    const saved = await download(long.node);
    assert.ok(saved);
    assert.ok(Buffer.byteLength(path.basename(saved.fsPath), 'utf8') <= 240, path.basename(saved.fsPath));

    const conFolder = row(root, 'CON');
    const conTxt = row(await rows(explorer, conFolder.node), 'CON .txt');
    const con = await download(conTxt.node);
    assert.equal(path.basename(con?.fsPath ?? ''), 'download-CON .txt');
    const bidi = root.find((r) => visible(r.label).startsWith('invoice'));
    assert.ok(bidi);
    const cleaned = await download(bidi.node);
    assert.equal(path.basename(cleaned?.fsPath ?? ''), 'invoicegnp.exe');
    assert.deepEqual(
      fs.readdirSync(tmp).sort(),
      [path.basename(saved.fsPath), 'download-CON .txt', 'invoicegnp.exe'].sort(),
      'nothing written outside these names',
    );

    const dots = row(root, '..');
    const inner = row(await rows(explorer, dots.node), '.');
    const file = row(await rows(explorer, inner.node), '..');
    await vscode.commands.executeCommand('portal.file.openRecord', file.node);
    const uri = (await features()).records.uriOf({ kind: 'record', file: (file.node as { ref: FileRef }).ref });
    assert.match(uri.path, /\/files\/\d+\/untitled \(record\)\.md$/);
    assert.match((await vscode.workspace.openTextDocument(uri)).getText(), /^# \.\.$/m);
  });

  it('"Download Folder…" of group .git writes no .git or .vscode folder, says what it renamed, and git status runs nothing', async () => {
    const portal = await portalRow(explorer, p.portalId);
    const account = (await rows(explorer, portal.node)).find((a) => a.id.endsWith('/a:1'))!;
    const group = row(await rows(explorer, account.node), TOOL_FOLDER_GROUP);
    const dir = fs.mkdtempSync(path.join(tmp, 'tools-'));
    const ui = await withUi({ 'folderDownload.folder': dir }, async (scripted) => {
      await vscode.commands.executeCommand('portal.group.download', group.node);
      return scripted;
    });
    const local = tree(dir);
    for (const folder of [dir, ...local.filter((e) => e.endsWith('/')).map((e) => path.join(dir, e))])
      spawnSync('git', ['status', '--porcelain'], {
        cwd: folder,
        stdio: 'ignore',
        timeout: 10_000,
        env: { ...process.env, GIT_CEILING_DIRECTORIES: tmp, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
      });
    assert.deepEqual(
      tree(dir).filter((e) => e.endsWith(FSMONITOR_MARKER)),
      [],
      'git status ran no command from the download',
    );
    // A folder laid out as a repository keeps its files, with HEAD and config renamed so Git sees none there.
    for (const f of ['_git/_config', '_git/_HEAD', '_git/project/_git/_config', '_git/project/_VSCODE/tasks.json'])
      assert.ok(local.includes(f), `${f} in ${local.join(', ')}`);
    for (const f of ['_git/config', '_git/HEAD', '_git/project/_git/config'])
      assert.ok(!local.includes(f), `${f} is not in ${local.join(', ')}`);
    assert.deepEqual(
      local.filter((e) => /(^|\/)(\.(git|vscode)|\.?(git|vscode)~\d+)\/?$/i.test(e)),
      [],
      'no .git, .vscode or 8.3 name of one',
    );
    const done = visible(ui.asked.find((a) => a.id === 'folderDownload.done')?.texts[0] ?? '');
    assert.match(done, /12 renamed so that Git and VS Code run nothing from them: _git, /, done);
    assertPlainUi(ui);
  });

  it('"Export to CSV" of members named like "Mallory;=HYPERLINK(…)" starts no formula, however a spreadsheet splits it', async () => {
    (await features()).members.show(mainAccount());
    const file = path.join(tmp, 'members.csv');
    await withUi({ 'members.export.file': file, 'members.export.groups': 'Members only' }, () =>
      vscode.commands.executeCommand('portal.members.exportCsv'),
    );
    const text = fs.readFileSync(file, 'utf8');
    for (const name of FORMULA_NAMES)
      assert.ok(text.includes(name.slice(0, name.search(/[;,\t|]/) + 1)), `${JSON.stringify(name)} is exported`);
    for (const delimiter of [',', ';', '\t', '|']) {
      const cells = (
        parse(text, { bom: true, delimiter, relax_quotes: true, relax_column_count: true }) as string[][]
      ).flat();
      assert.ok(cells.length > FORMULA_NAMES.length * 2);
      assert.deepEqual(
        cells.filter((c) => /^[ "]*[=+\-@\t\r]/.test(c)),
        [],
        `no cell starts a formula when split on ${JSON.stringify(delimiter)}`,
      );
    }
  });
});
