// A measurement, not a test: the extension host's heap while the Members view pages through 20,000 members and
// the Explorer through a 50,000-file folder, with VS Code drawing the views as it would for a person.
// Runs only when asked (it takes minutes):
//   PORTAL_HEAP_PROBE=1 npm run test:vscode -- --phase heap --skip-vsix
// Prints `explorer heap: …` lines and writes test-results/explorer-heap.json. It asserts nothing about the figures.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import * as vscode from 'vscode';
import { portalIdOf } from '../../../../src/auth/portalEntry';
import { EXTENSION_ID, portalApi, signInForTest } from '../../support/extension';
import { features, rows, setPageSize, unfold, walk, type Provider } from '../../support/tree';

const MB = 1024 * 1024;
/** Bounds the walk; a page is 100 rows. */
const MAX_PAGES = 700;
const REDRAW_WAIT_MS = 30_000;

function collector(): () => void {
  v8.setFlagsFromString('--expose_gc');
  const gc = vm.runInNewContext('gc') as () => void;
  return () => {
    for (let i = 0; i < 3; i++) gc();
  };
}

async function startLargeEmulator(root: string): Promise<{ url: string; child: ChildProcess }> {
  // Out of process: the emulator's own 70,000 records must not count in the extension host's heap. A small
  // wrapper stops it when its stdin closes, so it cannot outlive an extension host that is killed.
  const wrapper = [
    "const c = require('child_process').spawn(process.execPath, ['--import', 'tsx', ...process.argv.slice(1)], { stdio: ['ignore', 'inherit', 'inherit'] });",
    "process.stdin.on('end', () => c.kill('SIGTERM')); process.stdin.on('error', () => c.kill('SIGTERM')); process.stdin.resume();",
    "process.on('SIGTERM', () => c.kill('SIGTERM')); c.on('exit', (code) => process.exit(code ?? 0));",
  ].join('\n');
  const child = spawn(
    process.execPath,
    [
      '-e',
      wrapper,
      '--',
      path.join('test', 'emulator', 'cli.ts'),
      '--port',
      '0',
      '--seed',
      'large',
      '--rate-limit',
      '0/300',
      '--quiet',
    ],
    {
      cwd: root,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`the large emulator did not start: ${out}`)), 120_000);
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`the large emulator exited (${code}): ${out}`)));
  });
  return { url, child };
}

/** Resolves when VS Code next asks the provider for children (it redraws after "Load more"). */
function nextRedraw(provider: { getChildren: (e?: unknown) => unknown }): Promise<boolean> {
  return new Promise((resolve) => {
    const original = provider.getChildren;
    const timer = setTimeout(() => {
      provider.getChildren = original;
      resolve(false);
    }, REDRAW_WAIT_MS);
    provider.getChildren = function (this: unknown, e?: unknown) {
      const result = original.call(this, e) as Promise<unknown>;
      provider.getChildren = original;
      clearTimeout(timer);
      void Promise.resolve(result).then(() => setTimeout(() => resolve(true), 0));
      return result;
    };
  });
}

describe('Extension host heap while paging (measurement)', function () {
  this.timeout(30 * 60_000);
  let emulator: { url: string; child: ChildProcess } | undefined;
  const figures: Record<string, number | string> = {};

  before(function () {
    if (process.env.PORTAL_HEAP_PROBE !== '1') this.skip();
  });

  after(async () => {
    await setPageSize(undefined);
    if (emulator?.child.pid) {
      try {
        process.kill(-emulator.child.pid, 'SIGTERM');
      } catch {
        // gone
      }
    }
    const root = vscode.extensions.getExtension(EXTENSION_ID)?.extensionPath;
    if (root && Object.keys(figures).length > 0) {
      fs.mkdirSync(path.join(root, 'test-results'), { recursive: true });
      fs.writeFileSync(path.join(root, 'test-results', 'explorer-heap.json'), `${JSON.stringify(figures, null, 2)}\n`);
    }
  });

  it('pages through 20,000 members and a 50,000-file folder', async () => {
    const root = vscode.extensions.getExtension(EXTENSION_ID)?.extensionPath;
    assert.ok(root);
    emulator = await startLargeEmulator(root);
    const portalId = portalIdOf(emulator.url, 'portal');
    await signInForTest({ baseUrl: emulator.url, username: 'demo', password: 'demo' });
    await setPageSize(100);
    const gc = collector();
    const t = await features();
    const heap = () => process.memoryUsage().heapUsed;
    const report = (name: string, value: number | string) => {
      figures[name] = value;
      console.log(`explorer heap: ${name} = ${value}`);
    };

    gc();
    const base = heap();
    report('baseline_heap_mb', +(base / MB).toFixed(1));
    let peak = base;

    // Members: the view drawn by VS Code, "Load more…" clicked until the end.
    await vscode.commands.executeCommand('portal.members.focus');
    t.members.show({ kind: 'account', portalId, accountId: 1, label: 'BigCorp International' });
    const members = t.members.provider as unknown as Provider & { getChildren: (e?: unknown) => unknown };
    let started = Date.now();
    let redraws = 0;
    for (let page = 0; page < MAX_PAGES; page++) {
      const more = (await rows(members)).find((r) => r.contextValue === 'loadMore');
      if (!more) break;
      const redraw = nextRedraw(members);
      await vscode.commands.executeCommand('portal.members.loadMore', more.node);
      if (await redraw) redraws++;
      peak = Math.max(peak, heap());
    }
    const memberRows = (await unfold(members, await rows(members))).filter((r) =>
      r.contextValue.startsWith('member.'),
    ).length;
    gc();
    const afterMembers = heap();
    report('members_loaded', memberRows);
    report('members_seconds', Math.round((Date.now() - started) / 1000));
    report('members_view_redraws', redraws);
    report('heap_growth_members_mb', +((afterMembers - base) / MB).toFixed(1));

    // The 50,000-file folder: the bulk group's root level, expanded in the Explorer.
    await vscode.commands.executeCommand('portal.explorer.focus');
    const explorer = t.explorer.provider as unknown as Provider & { getChildren: (e?: unknown) => unknown };
    const bulk = await walk(explorer, portalId, ['BigCorp International', 'Bulk files']);
    await t.explorer.view.reveal(bulk.node as never, { expand: true, select: true });
    started = Date.now();
    redraws = 0;
    for (let page = 0; page < MAX_PAGES; page++) {
      const more = (await rows(explorer, bulk.node)).find((r) => r.contextValue === 'loadMore');
      if (!more) break;
      const redraw = nextRedraw(explorer);
      await vscode.commands.executeCommand('portal.explorer.loadMore', more.node);
      if (await redraw) redraws++;
      peak = Math.max(peak, heap());
    }
    const fileRows = (await unfold(explorer, await rows(explorer, bulk.node))).filter(
      (r) => r.contextValue === 'file' || r.contextValue === 'folder',
    ).length;
    gc();
    const afterFiles = heap();
    report('file_records_loaded', fileRows);
    report('files_seconds', Math.round((Date.now() - started) / 1000));
    report('files_view_redraws', redraws);
    report('heap_growth_files_mb', +((afterFiles - afterMembers) / MB).toFixed(1));
    report('heap_growth_total_mb', +((afterFiles - base) / MB).toFixed(1));
    report('heap_peak_growth_mb', +((peak - base) / MB).toFixed(1));

    const api = await portalApi();
    await api.registry.remove(portalId);
    assert.ok(memberRows > 0 && fileRows > 0, 'the walk loaded rows');
  });
});
