import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..', '..');

/** Starts the CLI and resolves with the URL it prints. */
function startCli(args: string[]): { child: ReturnType<typeof spawn>; url: Promise<string> } {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'test/emulator/cli.ts', '--port', '0', '--quiet', ...args],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const url = new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no listening line: ${out}`)), 20_000);
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /Portal emulator listening on (http:\/\/127\.0\.0\.1:(\d+))/.exec(out);
      if (m?.[1] && m[2] !== '0') {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
  return { child, url };
}

async function exitOf(args: string[]): Promise<{ code: number | null; err: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/emulator/cli.ts', ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (d: Buffer) => {
    err += d.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
  return { code, err };
}

void describe('cli', () => {
  void test('--port 0 prints the listening line with the port; SIGTERM stops it with exit code 0', async () => {
    const { child, url } = startCli(['--seed', 'empty', '--rate-limit', '100/60', '--token-lifetime', '60']);
    try {
      const res = await fetch(
        `${await url}/oauth/token?grant_type=password&client_id=portal-mobile&username=demo&password=demo`,
      );
      const body = (await res.json()) as { expires_in: number };
      assert.equal(body.expires_in, 60);
      const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      assert.equal(await exit, 0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  void test('a bad flag exits with code 2 and a message', async () => {
    for (const [args, flag] of [
      [['--seed', 'huge'], /--seed/],
      [['--profile', 'strict'], /--profile/],
      [['--missing-reads', 'v2.custom,v9.nope'], /v9\.nope/],
    ] as const) {
      const { code, err } = await exitOf([...args]);
      assert.equal(code, 2, args.join(' '));
      assert.match(err, flag);
    }
  });

  void test('--profile literal and --missing-reads reach the emulator', async () => {
    const { child, url } = startCli(['--profile', 'literal', '--missing-reads', 'v2.custom, v3.account.get']);
    try {
      const base = await url;
      const profile = (await (await fetch(`${base}/__emulator/profile`)).json()) as {
        profile: string;
        missingReads: string[];
      };
      assert.equal(profile.profile, 'literal');
      assert.deepEqual([...profile.missingReads].sort(), [
        'v2.custom',
        'v2.file.get',
        'v3.account.get',
        'v3.application.get',
      ]);
      assert.equal((await fetch(`${base}/oauth/token`, { method: 'POST' })).status, 405);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
