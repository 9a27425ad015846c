// A benchmark's measured side in a process of its own (so the emulator's work is not counted as the client's):
// the child prints one JSON line of figures on stdout.
import { spawn } from 'node:child_process';

/** Runs `node <args>` and reads the JSON line it prints; `what` names the child in an error. */
export function childFigures<T>(args: readonly string[], what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      try {
        resolve(JSON.parse(out) as T);
      } catch {
        reject(new Error(`${what} exited ${code ?? ''} without figures: ${out}`));
      }
    });
  });
}
