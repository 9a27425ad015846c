// Maps stack frames of bundled files (our test bundles, dist/extension.js) back to the TypeScript
// sources. The extension host installs its own Error.prepareStackTrace, so Node's
// --enable-source-maps does not apply there; this reads the linked .map files itself.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SourceMap } from 'node:module';

const cache = new Map<string, SourceMap | null>();

function mapFor(file: string): SourceMap | null {
  let map = cache.get(file);
  if (map === undefined) {
    map = null;
    try {
      map = new SourceMap(
        JSON.parse(fs.readFileSync(`${file}.map`, 'utf8')) as ConstructorParameters<typeof SourceMap>[0],
      );
    } catch {
      // no .map beside it: leave its frames alone
    }
    cache.set(file, map);
  }
  return map;
}

function originalPosition(file: string, line: number, column: number): string | undefined {
  const map = mapFor(file);
  if (!map) return undefined;
  const entry = map.findEntry(line - 1, column - 1);
  if (!('originalSource' in entry) || !entry.originalSource) return undefined;
  const source = entry.originalSource.startsWith('file://')
    ? new URL(entry.originalSource).pathname
    : path.resolve(path.dirname(file), entry.originalSource);
  return `${source}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
}

/** The same stack with every frame in a bundle that has a source map pointing at the original source. */
export function mapStack(stack: string): string {
  // mocha has already shortened paths under the working directory to relative ones
  return stack.replace(
    /((?:file:\/\/)?[^\s():]+\.js):(\d+):(\d+)/g,
    (whole, file: string, line: string, column: string) => {
      const abs = file.startsWith('file://') ? new URL(file).pathname : path.resolve(process.cwd(), file);
      return originalPosition(abs, Number(line), Number(column)) ?? whole;
    },
  );
}

/** Rewrites err.stack in place (mocha prints it after the run), ignoring values that are not errors. */
export function mapErrorStack(err: unknown): void {
  if (!(err instanceof Error) || typeof err.stack !== 'string') return;
  try {
    err.stack = mapStack(err.stack);
  } catch {
    // a frozen or exotic error: keep the bundle positions
  }
}
