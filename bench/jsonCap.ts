// Figures of the limits the client puts on a server it does not control.
//
//   json_cap_peak_mb      peak resident memory (RSS, MB) of a process running only the client, bundled as the
//                         extension ships it (esbuild), while the emulator (in this process) sends a 1 GiB answer
//                         to a JSON call; `_chunked` without Content-Length (the cap is met while streaming).
//                         json_cap_baseline_mb is the same process just before the call.
//   json_cap_attempts     how many times the client asked (the cap is not retried)
//   literal_walk_requests requests to walk every group of the large seed on a portal that keeps to the letter of
//                         the spec (the literal profile: plain arrays ignore paging)
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { PortalClient, collect } from '../src/api';
import { startEmulator } from '../test/emulator';
import type { Benchmark, Figure } from './types';

const GIB = 1024 * 1024 * 1024;

interface ChildReport {
  peakRssMb: number;
  baselineRssMb: number;
  attempts: number;
  error: string;
}

/**
 * bench/jsonCapClient.ts bundled with the client, as dist/extension.js bundles it: run under tsx, the process
 * would start at about 100 MB of loader and transpiler state that the extension never carries.
 */
async function bundleClient(dir: string): Promise<string> {
  const outfile = join(dir, 'jsonCapClient.cjs');
  await build({
    entryPoints: [join(import.meta.dirname, 'jsonCapClient.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outfile,
    logLevel: 'warning',
  });
  return outfile;
}

/** Runs the bundled client in a fresh process, so that its memory is the client's alone. */
function runClient(script: string, url: string): Promise<ChildReport> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, url], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      try {
        resolve(JSON.parse(out) as ChildReport);
      } catch {
        reject(new Error(`the client process exited ${code ?? ''} without a report: ${out}`));
      }
    });
  });
}

async function jsonCap(): Promise<Figure[]> {
  const emu = await startEmulator({ port: 0, seed: 'demo', quiet: true });
  const dir = mkdtempSync(join(tmpdir(), 'portal-bench-'));
  try {
    const script = await bundleClient(dir);
    const figures: Figure[] = [];
    for (const contentLength of [true, false]) {
      emu.setFaults([{ kind: 'huge-body', path: '/v3/userinfo', bytes: GIB, contentLength }]);
      const r = await runClient(script, emu.url);
      const suffix = contentLength ? '' : '_chunked';
      figures.push(
        { name: `json_cap_peak_mb${suffix}`, value: r.peakRssMb },
        { name: `json_cap_baseline_mb${suffix}`, value: r.baselineRssMb },
        { name: `json_cap_attempts${suffix}`, value: r.attempts },
        { name: `json_cap_error${suffix}`, value: r.error },
      );
    }
    return figures;
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await emu.stop();
  }
}

async function literalWalk(): Promise<Figure[]> {
  const emu = await startEmulator({
    port: 0,
    seed: 'large',
    profile: 'literal',
    quiet: true,
    rateLimit: { count: 0, windowSeconds: 300 },
  });
  const client = new PortalClient({ baseUrl: emu.url, service: 'portal' });
  try {
    await client.signIn({ kind: 'password', username: 'demo', password: 'demo' });
    const accountId = (await client.v3.accounts.list())[0]?.id ?? 1;
    emu.resetStats();
    const groups = await collect(client.v2.groups.iterate(accountId, { size: 100 }));
    return [
      { name: 'literal_walk_requests', value: emu.stats().byRoute['GET /v2/accounts/:account/groups'] ?? 0 },
      { name: 'literal_walk_groups', value: groups.length },
      { name: 'literal_walk_distinct_groups', value: new Set(groups.map((g) => g.id)).size },
    ];
  } finally {
    client.close();
    await emu.stop();
  }
}

export const limitBenchmarks: Benchmark[] = [
  { name: 'json-cap', figures: ['json_cap_peak_mb', 'json_cap_attempts'], run: jsonCap },
  { name: 'literal-walk', figures: ['literal_walk_requests'], run: literalWalk },
];
