import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..', '..');

void describe('cli', () => {
  void test('--port 0 prints the listening line with the port; SIGTERM stops it with exit code 0', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/emulator/cli.ts', '--port', '0', '--seed', 'empty', '--rate-limit', '100/60', '--token-lifetime', '60', '--quiet'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        const timer = setTimeout(() => reject(new Error(`no listening line: ${out}`)), 20_000);
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          const m = /Portal emulator listening on (http:\/\/127\.0\.0\.1:(\d+))/.exec(out);
          if (m?.[1] && m[2] !== '0') {
            clearTimeout(timer);
            resolve(m[1]);
          }
        });
        child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
      });
      const res = await fetch(`${url}/oauth/token?grant_type=password&client_id=portal-mobile&username=demo&password=demo`);
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
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/emulator/cli.ts', '--seed', 'huge'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => { err += d.toString(); });
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    assert.equal(code, 2);
    assert.match(err, /--seed/);
  });
});
