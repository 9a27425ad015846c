// Finds import cycles in src/, type-only imports included (part of `npm run check`). eslint's import/no-cycle skips
// `import type` with no option to count it; a type cycle still ties two modules so neither can change or move alone.
// Uses TypeScript's own parser and resolver, so it sees exactly the imports tsc sees (re-exports and `import()` too).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const root = join(import.meta.dirname, '..');
const src = join(root, 'src');
const options = { moduleResolution: ts.ModuleResolutionKind.Bundler, module: ts.ModuleKind.ESNext };

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (entry.name.endsWith('.ts')) yield path;
  }
}

/** module → the modules in src/ it imports, by value or by type. */
function graph() {
  const edges = new Map();
  for (const file of files(src)) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const to = new Set();
    for (const { fileName } of importedFiles) {
      const resolved = ts.resolveModuleName(fileName, file, options, ts.sys).resolvedModule?.resolvedFileName;
      if (resolved && resolved.startsWith(src) && !resolved.endsWith('.d.ts')) to.add(resolved);
    }
    edges.set(file, [...to]);
  }
  return edges;
}

/** Strongly connected components of more than one module (Tarjan), each a set of modules that reach each other. */
function cycles(edges) {
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) === index.get(v)) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (edges.get(v) ?? []).includes(v)) found.push(component.sort());
    }
  };
  for (const v of edges.keys()) if (!index.has(v)) visit(v);
  return found;
}

const found = cycles(graph());
if (found.length) {
  console.error(`Import cycles in src/ (type-only imports count): ${found.length}`);
  for (const component of found) console.error(`  ${component.map((f) => relative(root, f)).join(' ↔ ')}`);
  process.exit(1);
}
