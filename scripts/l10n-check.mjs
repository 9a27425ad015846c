// Keeps the English strings and their bundles in step (part of `npm run check`):
//   - the committed l10n/bundle.l10n.json is what exporting the vscode.l10n.t / l10n.t calls in src/ gives now;
//   - every %key% in package.json has an entry in package.nls.json, and every entry is used;
//   - every user-visible manifest field is a %key% (scripts/l10n-manifest.mjs says which fields those are).
// With --write (`npm run l10n:export`) it rewrites l10n/bundle.l10n.json instead of checking it.
// package.nls.json keys name the field they fill, ids without their `portal.` prefix: command.<id>.title,
// command.category, view.<id>.name, view.<id>.contextualTitle, viewContainer.<id>.title, welcome.<view>,
// config.<setting>.description (config.<setting>.<item property>.description inside an array setting).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { nlsKey, visibleTexts } from './l10n-manifest.mjs';

const root = join(import.meta.dirname, '..');
const L10N_DIR = './l10n';
const BUNDLE = join(root, L10N_DIR, 'bundle.l10n.json');
const cli = createRequire(import.meta.url).resolve('@vscode/l10n-dev/dist/cli.js');

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));
const formatJson = (value) => `${JSON.stringify(value, null, 2)}\n`;

/** What `vscode-l10n-dev export ./src` finds now. The tool writes no file when src has no strings: that is `{}`. */
function exportBundle() {
  const out = mkdtempSync(join(tmpdir(), 'portal-l10n-'));
  try {
    const r = spawnSync(process.execPath, [cli, 'export', '--outDir', out, './src'], { cwd: root, encoding: 'utf8' });
    if (r.status !== 0)
      throw new Error(`vscode-l10n-dev export failed (${r.status ?? r.signal}):\n${r.stdout}\n${r.stderr}`);
    try {
      return readJson(join(out, 'bundle.l10n.json'));
    } catch (err) {
      if (err.code === 'ENOENT') return {};
      throw err;
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

function checkBundle(exported, problems) {
  let committed;
  try {
    committed = readJson(BUNDLE);
  } catch (err) {
    problems.push(`${relative(root, BUNDLE)} cannot be read (${err.message}): run npm run l10n:export`);
    return;
  }
  const missing = Object.keys(exported).filter((k) => !(k in committed));
  const stale = Object.keys(committed).filter((k) => !(k in exported));
  const changed = Object.keys(exported).filter((k) => k in committed && !isDeepStrictEqual(exported[k], committed[k]));
  const list = (keys) => keys.map((k) => `\n    ${JSON.stringify(k)}`).join('');
  if (missing.length)
    problems.push(`strings in src/ missing from ${relative(root, BUNDLE)} (run npm run l10n:export):${list(missing)}`);
  if (stale.length)
    problems.push(
      `strings in ${relative(root, BUNDLE)} that src/ no longer has (run npm run l10n:export):${list(stale)}`,
    );
  if (changed.length) problems.push(`strings whose entry changed (run npm run l10n:export):${list(changed)}`);
}

function checkManifest(manifest, nls, problems) {
  if (manifest.l10n !== L10N_DIR)
    problems.push(`package.json "l10n" is ${JSON.stringify(manifest.l10n)}, not "${L10N_DIR}"`);
  for (const { path, value } of visibleTexts(manifest)) {
    if (!nlsKey(value))
      problems.push(`package.json ${path} is shown to people but is not a %key%: ${JSON.stringify(value)}`);
  }
  const used = new Set();
  const collect = (node, path) => {
    const key = nlsKey(node);
    if (key) {
      used.add(key);
      if (!(key in nls)) problems.push(`package.json ${path} uses %${key}%, which package.nls.json lacks`);
    } else if (typeof node === 'object' && node !== null) {
      for (const [k, v] of Object.entries(node))
        collect(v, Array.isArray(node) ? `${path}[${k}]` : path ? `${path}.${k}` : k);
    }
  };
  collect(manifest, '');
  for (const [key, value] of Object.entries(nls)) {
    if (!used.has(key)) problems.push(`package.nls.json "${key}" is used nowhere in package.json`);
    const text = typeof value === 'object' && value !== null ? value.message : value;
    if (typeof text !== 'string' || text.trim() === '') problems.push(`package.nls.json "${key}" has no English text`);
  }
  return used.size;
}

function main() {
  const started = Date.now();
  const exported = exportBundle();
  if (process.argv.includes('--write')) {
    mkdirSync(join(root, L10N_DIR), { recursive: true });
    writeFileSync(BUNDLE, formatJson(exported));
    console.log(`l10n: wrote ${Object.keys(exported).length} strings to ${relative(root, BUNDLE)}`);
    return 0;
  }
  const problems = [];
  checkBundle(exported, problems);
  const keys = checkManifest(readJson(join(root, 'package.json')), readJson(join(root, 'package.nls.json')), problems);
  if (problems.length) {
    console.error(`l10n check failed:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    return 1;
  }
  console.log(
    `l10n: ${keys} manifest keys, ${Object.keys(exported).length} bundle strings, in step (${Date.now() - started} ms)`,
  );
  return 0;
}

process.exitCode = main();
