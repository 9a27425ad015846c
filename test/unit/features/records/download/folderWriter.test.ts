// Writing a folder download's plan against the real emulator: exact bytes, tool folders renamed, Mark-of-the-Web,
// clashes with skip and overwrite, blocked paths, failures and cancel without a partial file.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { TEMP_PREFIX } from '../../../../../src/node/atomicFile';
import { walkFolder } from '../../../../../src/features/records/download/folderPlan';
import { markOfTheWeb } from '../../../../../src/node/markOfTheWeb';
import {
  downloadPlan,
  findClashes,
  type DownloadProgress,
} from '../../../../../src/features/records/download/folderWriter';
import { FSMONITOR_MARKER, TOOL_FOLDER_GROUP } from '../../../../emulator/seeds/hostile-payloads';
import { apiRequests } from '../../helpers';
import { bytesOf, engineering, filesBelow, folderOf, foldersBelow, withGroup, useScratch } from './helpers';

const DOWNLOAD_ROUTE = /^GET \/v3\/groups\/:group\/files\/:file\/download$/;

const scratch = useScratch();

void describe('folder download', () => {
  void test('downloads every file with its exact bytes, reporting files and bytes, leaving no temporary file', async () => {
    await withGroup('demo', 'acme', 'engineering', async (p) => {
      const plan = await engineering(p);
      const to = scratch.fresh();
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

  void test('folders tools run commands from (.git, .vscode and their look-alikes) are renamed; git status runs nothing', async () => {
    await withGroup('hostile', 'constructor', TOOL_FOLDER_GROUP, async (p) => {
      const plan = await walkFolder(p.client, folderOf(p, 0, TOOL_FOLDER_GROUP));
      const to = scratch.fresh();
      const summary = await downloadPlan(p.client, plan, to, { existing: 'skip' });
      assert.equal(summary.failed.length, 0, JSON.stringify(summary.failed.map((f) => f.message)));
      assert.equal(summary.written.length, plan.files.length);
      const written = filesBelow(to);
      const dirs = [to, ...foldersBelow(to)];
      // Git runs in each folder as a shell prompt or VS Code's Git extension would, with no user or system config.
      const git = (dir: string, ...args: string[]) =>
        spawnSync('git', args, {
          cwd: dir,
          stdio: 'ignore',
          timeout: 10_000,
          env: {
            ...process.env,
            GIT_CEILING_DIRECTORIES: scratch.dir,
            GIT_CONFIG_GLOBAL: '/dev/null',
            GIT_CONFIG_NOSYSTEM: '1',
          },
        });
      for (const dir of dirs) git(dir, 'status', '--porcelain');
      assert.deepEqual(
        filesBelow(to).filter((f) => path.basename(f) === FSMONITOR_MARKER),
        [],
        'git status ran no fsmonitor command',
      );
      // A `_git` (or any folder) still holding HEAD beside objects/ and refs/ is a bare repository to Git, whose
      // config (core.pager on `git log`) it would read: no downloaded folder may read as one.
      const repositories = dirs.filter((dir) => git(dir, 'rev-parse', '--git-dir').status === 0);
      assert.deepEqual(repositories, [], 'no downloaded folder reads as a repository');
      const segments = new Set(dirs.map((d) => path.basename(d)).concat(written.flatMap((f) => f.split('/'))));
      const tool = /^\.?(git|vscode)(~\d+)?$/i;
      assert.deepEqual(
        [...segments].filter((name) => tool.test(name) && (name.startsWith('.') || /~\d+$/.test(name))),
        [],
        'no folder or file named .git, .vscode or an 8.3 name of one',
      );
      for (const f of [
        '_git/_config',
        '_git/_HEAD',
        '_git/project/_git/_config',
        '_git/project/_git/_HEAD',
        '_git/project/_Git (1)/config',
        '_git/project/_VSCODE/tasks.json',
      ])
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
          '_git/_config',
          '_git/_HEAD',
          '_git/project/_git/_config',
          '_git/project/_git/_HEAD',
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
      const to = scratch.fresh();
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
      await downloadPlan(p.client, plan, scratch.fresh(), {
        existing: 'skip',
        mark: (file) => markOfTheWeb(file, p.client.baseUrl, 'linux', async (stream) => void elsewhere.push(stream)),
      });
      assert.deepEqual(elsewhere, [], 'no stream on Linux');
    });
  });

  void test('clashes are listed first; skip keeps the existing file without a request, overwrite replaces it', async () => {
    await withGroup('demo', 'acme', 'engineering', async (p) => {
      const plan = await engineering(p);
      const to = scratch.fresh();
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
      const to = scratch.fresh();
      const outside = scratch.fresh();
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
      const to = scratch.fresh();
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
    { timeout: 120_000 },
    async () => {
      await withGroup('demo', 'acme', 'engineering', async (p) => {
        const plan = await engineering(p);
        const expected = new Map<string, Buffer>();
        for (const f of plan.files) expected.set(f.path, await bytesOf(p, f.fileId));
        // Two files answer at once; the others send their headers and hold their bytes far beyond the test's length,
        // so they are still in flight when it cancels, however slow the machine.
        const slow = plan.files.slice(2);
        p.emu.setFaults(
          slow.map((f) => ({
            kind: 'slow-body' as const,
            delayMs: 120_000,
            method: 'GET',
            path: `/v3/groups/${p.group}/files/${f.fileId}/download`,
          })),
        );
        const controller = new AbortController();
        const to = scratch.fresh();
        const summary = await downloadPlan(p.client, plan, to, {
          existing: 'skip',
          concurrency: 4,
          signal: controller.signal,
          // Cancelled once the two quick files are written, not after a time they may not have had.
          onProgress: (progress) => {
            if (progress.filesDone === 2) controller.abort();
          },
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
});
