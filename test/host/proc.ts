// Child processes for the test host: every one bounded in time, every one killed with its whole group.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

export interface RunOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Hard limit; the process group is killed when it passes. */
  timeoutMs: number;
  /** Stream output to our stdout/stderr as it comes (it is captured either way). */
  echo?: boolean;
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/** Detached children still running; their groups are killed if we exit first (a Ctrl-C mid-install). */
const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of running) killGroup(child, 'SIGKILL');
});

/** Runs a command in its own process group and collects its output. Never rejects for a non-zero exit. */
export function runCommand(command: string, args: readonly string[], opts: RunOptions): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const spawnOpts: SpawnOptions = {
      cwd: opts.cwd,
      env: opts.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    };
    const child = spawn(command, args, spawnOpts);
    running.add(child);
    child.on('exit', () => running.delete(child));
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (opts.echo) process.stdout.write(chunk);
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (opts.echo) process.stderr.write(chunk);
    });
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child, 'SIGKILL');
    }, opts.timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? (signal ? 128 : 1), stdout, stderr, timedOut });
    });
  });
}

/** Sends a signal to a detached child's whole process group; ignores a group that is already gone. */
export function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // ESRCH: the group has exited already.
  }
}

/** True while a process group still has a member. */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export function formatDuration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}
