// The folder download's walk against the real emulator: the plan of every folder and file, safe local names
// (hostile seed), the walk's bounds, and a plan kept as plain data.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { localFileName } from '../../../../../src/features/records/download/fileNames';
import { walkFolder, type FolderPlan } from '../../../../../src/features/records/download/folderPlan';
import { downloadPlan } from '../../../../../src/features/records/download/folderWriter';
import { engineering, filesBelow, folderOf, withGroup, useScratch } from './helpers';

const scratch = useScratch();

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

  void test('hostile names: every path is a safe local name inside the target, none collide, all are written', async () => {
    await withGroup('hostile', 'constructor', 'constructor', async (p) => {
      const plan = await walkFolder(p.client, folderOf(p, 0, '..'));
      assert.ok(plan.files.length >= 15, `${plan.files.length} files`);
      const lower = new Set<string>();
      for (const entry of [...plan.folders, ...plan.files.map((f) => f.path)]) {
        for (const segment of entry.split('/'))
          assert.equal(localFileName(segment), segment, `${JSON.stringify(entry)} has a safe segment`);
        assert.ok(!lower.has(entry.toLowerCase()), `${entry} is planned once`);
        lower.add(entry.toLowerCase());
      }
      const to = scratch.fresh();
      const summary = await downloadPlan(p.client, plan, to, { existing: 'skip' });
      assert.equal(summary.failed.length, 0, JSON.stringify(summary.failed.map((f) => f.message)));
      assert.equal(summary.written.length, plan.files.length);
      for (const f of filesBelow(to)) assert.ok(!path.relative(to, path.join(to, f)).startsWith('..'));
      assert.deepEqual(
        fs.readdirSync(scratch.dir).filter((n) => !n.startsWith('to-')),
        [],
        'nothing was written beside the target',
      );
    });
  });

  void test('the walk is bounded in depth and count, and says so', async () => {
    // The large seed's bulk group, made small: a binary tree of folders three levels deep, two files in each.
    await withGroup(
      'large',
      'bigcorp',
      'bulk',
      async (p) => {
        const root = folderOf(p, 0, 'bulk');
        const full = await walkFolder(p.client, root);
        assert.equal(full.folders.length, 1 + 2 + 4 + 8);
        assert.equal(full.files.length, 3 + 2 * 14);
        const shallow = await walkFolder(p.client, root, { maxDepth: 1 });
        assert.deepEqual(
          [shallow.folders.length, shallow.files.length, shallow.depthLimited, shallow.countLimited],
          [3, 3 + 4, true, false],
        );
        const few = await walkFolder(p.client, root, { maxFiles: 5 });
        assert.deepEqual([few.files.length, few.countLimited], [5, true]);
        const narrow = await walkFolder(p.client, root, { maxFolders: 3 });
        assert.deepEqual([narrow.folders.length, narrow.countLimited], [4, true]);
        const controller = new AbortController();
        controller.abort();
        await assert.rejects(walkFolder(p.client, root, { signal: controller.signal }), {
          kind: 'cancelled',
        });
      },
      { members: 10, files: 3, groups: 2, folderDepth: 3 },
    );
  });

  void test('a plan is plain data: it can be kept and downloaded later', async () => {
    await withGroup('demo', 'acme', 'engineering', async (p) => {
      const plan: FolderPlan = JSON.parse(JSON.stringify(await engineering(p))) as FolderPlan;
      const summary = await downloadPlan(p.client, plan, scratch.fresh(), { existing: 'skip' });
      assert.equal(summary.written.length, plan.files.length);
    });
  });
});
