import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

export interface LeakFinding {
  kind: string;
  file: string;
}

/** Secrets recorded by the in-VS-Code suites (one JSON object a line: {kind, value}). */
export function readRecordedSecrets(file: string): { kind: string; value: string }[] {
  if (!existsSync(file)) return [];
  const seen = new Set<string>();
  const out: { kind: string; value: string }[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const s = JSON.parse(line) as { kind: string; value: string };
    if (s.value.length < 8 || seen.has(s.value)) continue; // short values would match by chance
    seen.add(s.value);
    out.push(s);
  }
  return out;
}

function* filesUnder(dir: string, budget = { files: 50_000 }): Generator<string> {
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    if (budget.files-- <= 0) return;
    const path = join(dir, name);
    const st = statSync(path, { throwIfNoEntry: false });
    if (!st) continue;
    if (st.isDirectory()) yield* filesUnder(path, budget);
    else if (st.isFile() && st.size < 64 * 1024 * 1024) yield path;
  }
}

/**
 * Searches every file under the given roots (settings, state databases, logs, caches) for each secret,
 * as raw bytes and as UTF-16 (how some stores write strings).
 */
export function scanForSecrets(roots: string[], secrets: { kind: string; value: string }[]): LeakFinding[] {
  const findings: LeakFinding[] = [];
  const needles = secrets.map((s) => ({
    kind: s.kind,
    utf8: Buffer.from(s.value, 'utf8'),
    utf16: Buffer.from(s.value, 'utf16le'),
  }));
  for (const root of roots) {
    for (const file of filesUnder(root)) {
      const bytes = readFileSync(file);
      for (const n of needles) {
        if (bytes.includes(n.utf8) || bytes.includes(n.utf16))
          findings.push({ kind: n.kind, file: relative(root, file) });
      }
    }
  }
  return findings;
}
