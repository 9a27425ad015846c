// One resume per journal, inside the real extension host. An apply is cut off the way a crashed window cuts it off
// (it runs in a child process killed with SIGKILL half-way, its journal in this extension's storage), then two
// resumes of it are started together: two Resume Interrupted Apply… in this window; this window and a second engine
// in the same process (same process id, so only the lock's token tells them apart); and another process (the unit
// tier's resume child, as a second window) with this window. Each time one resume runs, the other is refused with a
// message a person understands, and the portal gets one PATCH per member in all.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import * as vscode from 'vscode';
import { PortalClient } from '../../../../../src/api';
import { journalFolderOf, readJournal, resumeApply } from '../../../../../src/engine/members/index';
import { csvLine } from '../../../../../src/features/members/csv/csv';
import { localDataOf, removeLocalData } from '../../../../../src/features/members/localData/localFiles';
import { startDemoPortal, stopDemoPortal, type DemoPortal } from '../../../support/demoPortal';
import { isPortalError, portalApi } from '../../../support/extension';
import { eventually } from '../../../support/membersFile';
import { portalJson } from '../../../support/portalHttp';
import { visible, withUi, type ScriptedUi } from '../../../support/ui';
import { tempDir } from '../../../../support/tempDir';

const PATCH = 'PATCH /v3/accounts/:account/members/:username';
const MEMBERS = 12;
const RESUME = 'portal.plan.resume';
const APPLIED = /^Applied to .+\. Done: \d+\./;
/** What the resume that does not run may say: it is never silent, and never says it ran. */
const REFUSED =
  /^(No apply was interrupted: there is nothing to resume\.|That apply has been finished or undone already\.|This apply is already running, in this window or another: wait for it to finish\.)$/;
const run = promisify(execFile);

interface MembersPage {
  items: Array<{ user: { username: string }; tags: string[] }>;
}

const told = (ui: ScriptedUi): string[] => ui.told.map((t) => visible(t.text));

function repoRoot(): string {
  const root = process.env.PORTAL_TEST_EXTENSION_ROOT;
  assert.ok(root, 'the runner names the repository');
  return root;
}

/** The unit tier's child processes: an apply (to kill half-way) and a resume. */
const child = (name: string): string => path.join(repoRoot(), 'test/unit/engine/members', name);

describe('Members: one resume per journal, across windows and engines', function () {
  this.timeout(120_000);
  let p: DemoPortal;
  let storage: string;
  let dir: string;
  const patches = (): number => p.emu.stats().byRoute[PATCH] ?? 0;
  const tagsOf = async (name: string): Promise<string[]> => {
    const res = await portalJson<{ tags: string[] }>(p.emu.url, p.token, 'GET', `/v3/accounts/1/members/${name}`);
    assert.equal(res.status, 200, `GET ${name}`);
    return res.body.tags;
  };

  /**
   * A window that crashed mid-apply: the apply (a tag for MEMBERS generated members) runs in a child process that is
   * killed after half of them were started. The emulator's stats are counted from its start.
   */
  async function interruptedApply(tag: string): Promise<{ file: string; names: string[] }> {
    const page = await portalJson<MembersPage>(p.emu.url, p.token, 'GET', '/v3/accounts/1/members?page=1&size=100');
    const names = page.body.items
      .filter((m) => /^[a-z]+\.[a-z]+$/.test(m.user.username) && m.user.username !== 'victor.hale')
      .slice(0, MEMBERS)
      .map((m) => m.user.username);
    assert.equal(names.length, MEMBERS);
    const text = path.join(dir, `${tag}.csv`);
    fs.writeFileSync(text, [csvLine(['username', 'tags']), ...names.map((n) => csvLine([n, tag]))].join(''));
    const folder = journalFolderOf(storage);
    const before = new Set(fs.existsSync(folder) ? fs.readdirSync(folder) : []);
    const mine = (): string | undefined => {
      const name = (fs.existsSync(folder) ? fs.readdirSync(folder) : []).find(
        (n) => n.endsWith('.jsonl') && !before.has(n),
      );
      return name && path.join(folder, name);
    };
    const intents = (file: string | undefined): number =>
      file ? fs.readFileSync(file, 'utf8').split('"type":"intent"').length - 1 : 0;
    // Slow answers, so that the child is killed with half its members started.
    p.emu.setFaults([{ kind: 'latency', delayMs: 150, method: 'PATCH', path: '/v3/accounts/1/members/' }]);
    p.emu.resetStats();
    const apply = spawn(
      process.execPath,
      ['--import', 'tsx', child('applyChild.ts'), p.emu.url, '1', text, storage, '2', p.portalId],
      { cwd: repoRoot(), stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    apply.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<void>((resolve) => apply.once('exit', () => resolve()));
    try {
      await eventually(mine, (f) => intents(f) >= MEMBERS / 2, `half the members were started (${stderr})`, 60_000);
    } finally {
      apply.kill('SIGKILL');
      await exited;
      p.emu.clearFaults();
    }
    // A PATCH the portal received before the kill is still being answered: once every one has landed, what a resume
    // reads back is final, and the count below says nothing about timing.
    const tagged = async (): Promise<number> =>
      (await Promise.all(names.map(tagsOf))).filter((t) => t.includes(tag)).length;
    await eventually(tagged, (n) => n === patches(), 'every PATCH received has landed', 30_000);
    const file = mine();
    assert.ok(file);
    const record = await readJournal(file);
    assert.ok(record.unfinished && !record.end, 'the apply was cut off before its end');
    return { file, names };
  }

  /** Each member has the tag, and the portal got one PATCH per member in all: so none was sent twice. */
  async function eachSentOnce(names: readonly string[], tag: string, what: string): Promise<void> {
    for (const name of names) assert.deepEqual(await tagsOf(name), [tag], `${name} has the tag once`);
    assert.equal(patches(), names.length, `one PATCH per member, none twice (${what})`);
  }

  before(async () => {
    dir = tempDir('portal-resume-once-');
    p = await startDemoPortal({ profile: 'default' });
    storage = (await portalApi()).testing.members.plan.storage;
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    // This portal's journals and reports go: later suites and the restart phase see only their own.
    if (p) await removeLocalData(await localDataOf(storage, { portalId: p.portalId, baseUrl: p.emu.url }));
    await stopDemoPortal(p);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  afterEach(() => p.emu.clearFaults());

  it('two Resume Interrupted Apply… at once in one window: one resumes, the other is told why not', async () => {
    const tag = 'twice-in-one-window';
    const { names } = await interruptedApply(tag);
    p.emu.setFaults([{ kind: 'latency', delayMs: 100, method: 'PATCH', path: '/v3/accounts/1/members/' }]);
    const said = await withUi(
      { 'plan.interrupted': 'resume', 'plan.resume.confirm': true },
      async (ui) => {
        await Promise.all([vscode.commands.executeCommand(RESUME), vscode.commands.executeCommand(RESUME)]);
        return told(ui);
      },
      { allUsed: false },
    );
    assert.equal(said.filter((t) => APPLIED.test(t)).length, 1, `one resume ran: ${said.join(' | ')}`);
    assert.equal(said.filter((t) => REFUSED.test(t)).length, 1, `the other was refused: ${said.join(' | ')}`);
    await eachSentOnce(names, tag, said.join(' | '));
  });

  it('a second engine in the same process, started while this window resumes, is refused: one process id, two tokens', async () => {
    const tag = 'second-engine';
    const { file, names } = await interruptedApply(tag);
    const client = new PortalClient({ baseUrl: p.emu.url, service: 'portal' });
    await client.signIn({ kind: 'password', username: 'demo', password: 'demo' });
    let second: Promise<unknown> | undefined;
    try {
      const said = await withUi(
        {
          'plan.interrupted': 'resume',
          // The window holds the journal's lock from before it shows what remains: the second engine starts now.
          'plan.resume.confirm': () => {
            second = resumeApply(client, { file }, { journalFolder: storage, confirm: async () => true }).then(
              (r) => `resumed with ${r.requests} requests`,
              (e: unknown) => e,
            );
            return true;
          },
        },
        async (ui) => {
          await vscode.commands.executeCommand(RESUME);
          return told(ui);
        },
      );
      assert.equal(said.filter((t) => APPLIED.test(t)).length, 1, `the window resumed: ${said.join(' | ')}`);
      const outcome = await second;
      assert.ok(isPortalError(outcome, 'conflict'), `the second engine was refused, not: ${String(outcome)}`);
      assert.equal(outcome.message, 'This apply is already running, in this window or another: wait for it to finish.');
    } finally {
      client.close();
    }
    await eachSentOnce(names, tag, 'window and second engine');
  });

  it('another process resuming the journal: this window, asked meanwhile, does not offer it', async () => {
    const tag = 'window-and-process';
    const { file, names } = await interruptedApply(tag);
    // Each PATCH takes 3 s: once the other process has sent one, it holds the journal for at least that long.
    p.emu.setFaults([{ kind: 'latency', delayMs: 3000, method: 'PATCH', path: '/v3/accounts/1/members/' }]);
    const sentBefore = patches();
    const other = run(process.execPath, ['--import', 'tsx', child('resumeChild.ts'), p.emu.url, file, storage], {
      cwd: repoRoot(),
      timeout: 90_000,
    }).then((r) => r.stdout);
    await eventually(patches, (n) => n > sentBefore, 'the other process is sending', 60_000);
    const said = await withUi(
      { 'plan.interrupted': 'resume', 'plan.resume.confirm': true },
      async (ui) => {
        await vscode.commands.executeCommand(RESUME);
        assert.deepEqual(ui.questions, [], 'nothing is asked');
        return told(ui);
      },
      { allUsed: false },
    );
    assert.deepEqual(
      said,
      ['No apply was interrupted: there is nothing to resume.'],
      'the running apply is not offered',
    );
    assert.equal(await other, 'resumed', 'the other process finished the apply');
    await eachSentOnce(names, tag, 'window and another process');
  });
});
