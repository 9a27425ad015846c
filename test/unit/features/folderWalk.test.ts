// Folder download against the real emulator: the walk and its plan, safe local names (hostile seed), clashes,
// skip and overwrite, failures and cancel without a partial file, and the walk's bounds.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { PortalClient } from '../../../src/api';
import { localFileName } from '../../../src/features/records/download/fileNames';
import { TEMP_PREFIX } from '../../../src/node/atomicFile';
import { markOfTheWeb } from '../../../src/node/markOfTheWeb';
import {
  downloadPlan,
  findClashes,
  walkFolder,
  type DownloadProgress,
  type FolderPlan,
} from '../../../src/features/records/download/folderPlan';
import { FSMONITOR_MARKER, TOOL_FOLDER_GROUP } from '../../emulator/seeds/hostile-payloads';
import { accountIdOf, apiRequests, demoClient, emulator, groupIdOf, type Emulator } from './helpers';

const DOWNLOAD_ROUTE = /^GET \/v3\/groups\/:group\/files\/:file\/download$/;

let scratch: string;
before(() => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-folder-'));
});
after(() => fs.rmSync(scratch, { recursive: true, force: true }));

function freshDir(): string {
  return fs.mkdtempSync(path.join(scratch, 'to-'));
}

/** Every file below `dir`, relative, with "/" separators. */
function filesBelow(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((d) => d.isFile())
    .map((d) => path.relative(dir, path.join(d.parentPath, d.name)).split(path.sep).join('/'))
    .sort();
}

/** Every folder below `dir` (absolute). */
function foldersBelow(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((d) => d.isDirectory())
    .map((d) => path.join(d.parentPath, d.name));
}

interface Portal {
  emu: Emulator;
  client: PortalClient;
  account: number;
  group: number;
}

async function withGroup(
  seed: 'demo' | 'hostile' | 'large',
  account: string,
  group: string,
  run: (p: Portal) => Promise<void>,
  large?: { members: number; files: number; groups: number; folderDepth: number },
): Promise<void> {
  const emu = await emulator({ seed, ...(large ? { large } : {}) });
  const client = await demoClient(emu).catch(async (error: unknown) => {
    await emu.stop();
    throw error;
  });
  try {
    const accountId = await accountIdOf(client, account);
    await run({ emu, client, account: accountId, group: await groupIdOf(client, accountId, group) });
  } finally {
    client.close();
    await emu.stop();
  }
}

const engineering = (p: Portal, options = {}) =>
  walkFolder(p.client, p.account, { groupId: p.group, folderId: 0, name: 'engineering' }, options);

async function bytesOf(p: Portal, fileId: number): Promise<Buffer> {
  const d = await p.client.v2.files.download(p.group, fileId);
  const chunks: Buffer[] = [];
  for await (const c of d.body as AsyncIterable<Buffer>) chunks.push(c);
  return Buffer.concat(chunks);
}

void describe('folder download', () => {
  void test('the walk plans every folder and file of the tree, with local paths below the folder', async () => {
    await withGroup('demo', 'acme', 'engineering', async (p) => {
      const plan = await engineering(p);
      assert.deepEqual(plan.folders, [
        'engineering',
        'engineering/docs',
        'engineering/src',
        'engineering/docs/diagrams',
        'engineering/src/utils',
      ]);
      assert.deepEqual(
        plan.files.map((f) => f.path).sort(),
        [
          'engineering/config.json',
          'engineering/docs/architecture.md',
          'engineering/docs/diagrams/overview.png',
          'engineering/README.md',
          'engineering/releases.csv',
          'engineering/src/index.ts',
          'engineering/src/utils/format.ts',
        ].sort(),
      );
      assert.equal(
        plan.bytes,
        plan.files.reduce((n, f) => n + f.size, 0),
      );
      assert.equal(plan.depthLimited || plan.countLimited, false);
    });
  });

  void test('downloads every file with its exact bytes, reporting files and bytes, leaving no temporary file', async () => {
    await withGroup('demo', 'acme', 'engineering', async (p) => {
      const plan = await engineering(p);
      const to = freshDir();
      const events: DownloadProgress[] = [];
      const summary = await downloadPlan(p.client, plan, to, {
        existing: 'skip',
        concurrency: 3,
        onProgress: (e) => events.push(e),
      });
      assert.equal(summary.written.length, plan.files.length);
      assert.deepEqual([summary.skipped.length, summary.failed.length, summary.cancelled.length], [0, 0, 0]);
      assert.equal(summary.bytes, plan.bytes);
      assert.deepEqual(filesBelow(to), plan.files.map((f) => f.path).sort());
      for (const f of plan.files)
        assert.ok(fs.readFileSync(path.join(to, f.path)).equals(await bytesOf(p, f.fileId)), f.path);
      const last = events.at(-1);
      assert.deepEqual(last, {
        filesDone: plan.files.length,
        filesTotal: plan.files.length,
        bytesDone: plan.bytes,
        bytesTotal: plan.bytes,
      });
      assert.ok(
        events.some((e) => e.bytesDone > 0 && e.filesDone < plan.files.length),
        'bytes are reported while files download',
      );
    });
  });

  void test('hostile names: every path is a safe local name inside the target, none collide, all are written', async () => {
    await withGroup('hostile', 'constructor', 'constructor', async (p) => {
      const plan = await walkFolder(p.client, p.account, { groupId: p.group, folderId: 0, name: '..' });
      assert.ok(plan.files.length >= 15, `${plan.files.length} files`);
      const lower = new Set<string>();
      for (const entry of [...plan.folders, ...plan.files.map((f) => f.path)]) {
        for (const segment of entry.split('/'))
          assert.equal(localFileName(segment), segment, `${JSON.stringify(entry)} has a safe segment`);
        assert.ok(!lower.has(entry.toLowerCase()), `${entry} is planned once`);
        lower.add(entry.toLowerCase());
      }
      const to = freshDir();
      const summary = await downloadPlan(p.client, plan, to, { existing: 'skip' });
      assert.equal(summary.failed.length, 0, JSON.stringify(summary.failed.map((f) => f.message)));
      assert.equal(summary.written.length, plan.files.length);
      for (const f of filesBelow(to)) assert.ok(!path.relative(to, path.join(to, f)).startsWith('..'));
      assert.deepEqual(
        fs.readdirSync(scratch).filter((n) => !n.startsWith('to-')),
        [],
        'nothing was written beside the target',
      );
    });
  });

  void test('folders tools run commands from (.git, .vscode and their look-alikes) are renamed; git status runs nothing', async () => {
    await withGroup('hostile', 'constructor', TOOL_FOLDER_GROUP, async (p) => {
      const plan = await walkFolder(p.client, p.account, { groupId: p.group, folderId: 0, name: TOOL_FOLDER_GROUP });
      const to = freshDir();
      const summary = await downloadPlan(p.client, plan, to, { existing: 'skip' });
      assert.equal(summary.failed.length, 0, JSON.stringify(summary.failed.map((f) => f.message)));
      assert.equal(summary.written.length, plan.files.length);
      const written = filesBelow(to);
      const dirs = [to, ...foldersBelow(to)];
      // Git runs in each folder as a shell prompt or VS Code's Git extension would, with no user or system config.
      for (const dir of dirs) {
        spawnSync('git', ['status', '--porcelain'], {
          cwd: dir,
          stdio: 'ignore',
          timeout: 10_000,
          env: {
            ...process.env,
            GIT_CEILING_DIRECTORIES: scratch,
            GIT_CONFIG_GLOBAL: '/dev/null',
            GIT_CONFIG_NOSYSTEM: '1',
          },
        });
      }
      assert.deepEqual(
        filesBelow(to).filter((f) => path.basename(f) === FSMONITOR_MARKER),
        [],
        'git status ran no fsmonitor command',
      );
      const segments = new Set(dirs.map((d) => path.basename(d)).concat(written.flatMap((f) => f.split('/'))));
      const tool = /^\.?(git|vscode)(~\d+)?$/i;
      assert.deepEqual(
        [...segments].filter((name) => tool.test(name) && (name.startsWith('.') || /~\d+$/.test(name))),
        [],
        'no folder or file named .git, .vscode or an 8.3 name of one',
      );
      for (const f of ['_git/config', '_git/project/_git/config', '_git/project/_VSCODE/tasks.json'])
        assert.ok(written.includes(f), `${f} in ${written.join(', ')}`);
      assert.ok(written.includes('_git/project/linked/_git'), 'the file .git that points Git elsewhere is renamed too');
      assert.ok(
        written.some((f) => f.startsWith('_git/project/_GIT~1/')) &&
          written.some((f) => f.startsWith('_git/project/_vscode~2/')),
        '8.3 names renamed',
      );
      assert.deepEqual(
        [...plan.renamed].sort(),
        [
          '_git',
          '_git/project/_Git (1)',
          '_git/project/_GIT~1',
          '_git/project/_git',
          '_git/project/_VSCODE',
          '_git/project/_vscode (1)',
          '_git/project/_vscode~2',
          '_git/project/linked/_git',
        ].sort(),
        'the plan names every renamed path, for the summary',
      );
    });
  });

  void test('on Windows every file written gets the Mark-of-the-Web (its portal origin), a file kept does not', async () => {
    await withGroup('demo', 'acme', 'engineering', async (p) => {
      const plan = await engineering(p);
      const to = freshDir();
      const keep = plan.files[0]!;
      fs.mkdirSync(path.dirname(path.join(to, keep.path)), { recursive: true });
      fs.writeFileSync(path.join(to, keep.path), 'mine');
      const streams = new Map<string, string>();
      const summary = await downloadPlan(p.client, plan, to, {
        existing: 'skip',
        mark: (file) =>
          markOfTheWeb(file, p.client.baseUrl, 'win32', async (stream, content) => {
            streams.set(stream, content);
          }),
      });
      assert.equal(summary.written.length, plan.files.length - 1);
      assert.deepEqual(
        [...streams.keys()].sort(),
        summary.written.map((f) => `${path.join(to, f.path)}:Zone.Identifier`).sort(),
      );
      const origin = new URL(p.emu.url).origin;
      for (const content of streams.values())
        assert.equal(content, `[ZoneTransfer]\r\nZoneId=3\r\nHostUrl=${origin}\r\n`);
      const elsewhere: string[] = [];
      await downloadPlan(p.client, plan, freshDir(), {
        existing: 'skip',
        mark: (file) => markOfTheWeb(file, p.client.baseUrl, 'linux', async (stream) => void elsewhere.push(stream)),
      });
      assert.deepEqual(elsewhere, [], 'no stream on Linux');
    });
  });

  void test('clashes are listed first; skip keeps the existing file without a request, overwrite replaces it', async () => {
    await withGroup('demo', 'acme', 'engineering', async (p) => {
      const plan = await engineering(p);
      const to = freshDir();
      fs.mkdirSync(path.join(to, 'engineering'));
      fs.writeFileSync(path.join(to, 'engineering', 'README.md'), 'mine');
      const clashes = await findClashes(plan, to);
      assert.deepEqual(
        clashes.existing.map((f) => f.path),
        ['engineering/README.md'],
      );
      assert.deepEqual(clashes.blocked, []);

      p.emu.resetStats();
      const skipped = await downloadPlan(p.client, plan, to, { existing: 'skip' });
      assert.deepEqual(
        skipped.skipped.map((f) => f.path),
        ['engineering/README.md'],
      );
      assert.equal(fs.readFileSync(path.join(to, 'engineering', 'README.md'), 'utf8'), 'mine');
      assert.equal(apiRequests(p.emu, DOWNLOAD_ROUTE), plan.files.length - 1);

      const overwritten = await downloadPlan(p.client, plan, to, { existing: 'overwrite' });
      assert.equal(overwritten.written.length, plan.files.length);
      const readme = plan.files.find((f) => f.path === 'engineering/README.md');
      assert.ok(readme);
      assert.ok(fs.readFileSync(path.join(to, readme.path)).equals(await bytesOf(p, readme.fileId)));
    });
  });

  void test('a folder where a file goes, or a link where a folder goes, is blocked: nothing is written through it', async () => {
    await withGroup('demo', 'acme', 'engineering', async (p) => {
      const plan = await engineering(p);
      const to = freshDir();
      const outside = freshDir();
      fs.mkdirSync(path.join(to, 'engineering', 'config.json'), { recursive: true });
      fs.symlinkSync(outside, path.join(to, 'engineering', 'src'), 'dir');
      const clashes = await findClashes(plan, to);
      assert.deepEqual([...clashes.blocked].sort(), ['engineering/config.json', 'engineering/src']);
      const summary = await downloadPlan(p.client, plan, to, { existing: 'overwrite' });
      assert.deepEqual(summary.failed.map((f) => [f.file.path, f.kind]).sort(), [
        ['engineering/config.json', 'file-system'],
        ['engineering/src/index.ts', 'file-system'],
        ['engineering/src/utils/format.ts', 'file-system'],
      ]);
      assert.deepEqual(fs.readdirSync(outside), [], 'nothing was written through the link');
      assert.equal(summary.written.length, plan.files.length - 3);
    });
  });

  void test('a failed download leaves no file and no temporary file; the others are written', async () => {
    await withGroup('demo', 'acme', 'engineering', async (p) => {
      const plan = await engineering(p);
      const broken = plan.files.find((f) => f.name === 'format.ts');
      assert.ok(broken);
      p.emu.setFaults([
        { kind: 'status', status: 500, method: 'GET', path: `/v3/groups/${p.group}/files/${broken.fileId}/download` },
      ]);
      const to = freshDir();
      const summary = await downloadPlan(p.client, plan, to, { existing: 'skip' });
      assert.deepEqual(
        summary.failed.map((f) => [f.file.path, f.kind]),
        [['engineering/src/utils/format.ts', 'server']],
      );
      assert.ok((summary.failed[0]?.message.length ?? 0) > 10);
      assert.deepEqual(
        filesBelow(to),
        plan.files
          .filter((f) => f !== broken)
          .map((f) => f.path)
          .sort(),
      );
    });
  });

  void test(
    'cancel mid-download: files in flight are stopped and removed, every file left is complete',
    { timeout: 10_000 },
    async () => {
      await withGroup('demo', 'acme', 'engineering', async (p) => {
        const plan = await engineering(p);
        const expected = new Map<string, Buffer>();
        for (const f of plan.files) expected.set(f.path, await bytesOf(p, f.fileId));
        // Two files answer at once, the others stream their bytes over 3 s.
        const slow = plan.files.slice(2);
        p.emu.setFaults(
          slow.map((f) => ({
            kind: 'slow-body' as const,
            delayMs: 3000,
            method: 'GET',
            path: `/v3/groups/${p.group}/files/${f.fileId}/download`,
          })),
        );
        const controller = new AbortController();
        const to = freshDir();
        setTimeout(() => controller.abort(), 400);
        const summary = await downloadPlan(p.client, plan, to, {
          existing: 'skip',
          concurrency: 4,
          signal: controller.signal,
        });
        assert.equal(summary.written.length, 2);
        assert.equal(summary.cancelled.length, plan.files.length - 2);
        assert.equal(summary.failed.length, 0);
        const left = filesBelow(to);
        assert.deepEqual(left, summary.written.map((f) => f.path).sort());
        for (const f of left)
          assert.ok(fs.readFileSync(path.join(to, f)).equals(expected.get(f) ?? Buffer.alloc(0)), `${f} is complete`);
        assert.ok(!left.some((f) => path.basename(f).startsWith(TEMP_PREFIX)));
      });
    },
  );

  void test('the walk is bounded in depth and count, and says so', async () => {
    // The large seed's bulk group, made small: a binary tree of folders three levels deep, two files in each.
    await withGroup(
      'large',
      'bigcorp',
      'bulk',
      async (p) => {
        const root = { groupId: p.group, folderId: 0, name: 'bulk' };
        const full = await walkFolder(p.client, p.account, root);
        assert.equal(full.folders.length, 1 + 2 + 4 + 8);
        assert.equal(full.files.length, 3 + 2 * 14);
        const shallow = await walkFolder(p.client, p.account, root, { maxDepth: 1 });
        assert.deepEqual(
          [shallow.folders.length, shallow.files.length, shallow.depthLimited, shallow.countLimited],
          [3, 3 + 4, true, false],
        );
        const few = await walkFolder(p.client, p.account, root, { maxFiles: 5 });
        assert.deepEqual([few.files.length, few.countLimited], [5, true]);
        const narrow = await walkFolder(p.client, p.account, root, { maxFolders: 3 });
        assert.deepEqual([narrow.folders.length, narrow.countLimited], [4, true]);
        const controller = new AbortController();
        controller.abort();
        await assert.rejects(walkFolder(p.client, p.account, root, { signal: controller.signal }), {
          kind: 'cancelled',
        });
      },
      { members: 10, files: 3, groups: 2, folderDepth: 3 },
    );
  });

  void test('a plan is plain data: it can be kept and downloaded later', async () => {
    await withGroup('demo', 'acme', 'engineering', async (p) => {
      const plan: FolderPlan = JSON.parse(JSON.stringify(await engineering(p))) as FolderPlan;
      const summary = await downloadPlan(p.client, plan, freshDir(), { existing: 'skip' });
      assert.equal(summary.written.length, plan.files.length);
    });
  });
});
