// Bundles the extension host code (Node, CommonJS) and the one webview bundle of every form (browser, IIFE).
// Usage: node esbuild.js [--production] [--watch]
const esbuild = require('esbuild');
const fs = require('node:fs');
const path = require('node:path');

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const root = __dirname;

/** Prints each output file's size so growth is noticed at build time, not in the marketplace. */
const reportSizes = {
  name: 'report-sizes',
  setup(build) {
    build.onEnd((result) => {
      if (result.errors.length > 0) return;
      for (const [file, info] of Object.entries(result.metafile?.outputs ?? {})) {
        if (file.endsWith('.map')) continue;
        console.log(`${path.relative(root, file)}: ${(info.bytes / 1024).toFixed(1)} KiB`);
      }
    });
  },
};

/**
 * exceljs (over 1 MiB) is a bundle of its own, `dist/exceljs.js`, required only when an `.xlsx` is imported: every
 * start of the extension would otherwise parse it.
 */
const lazyExceljs = {
  name: 'lazy-exceljs',
  setup(build) {
    build.onResolve({ filter: /^exceljs$/ }, () => ({ path: './exceljs.js', external: true }));
  },
};

/** The bundles' options; a unit test builds the production extension bundle in memory from these. */
function buildOptions(production) {
  const common = {
    bundle: true,
    minify: production,
    sourcemap: production ? false : 'linked',
    metafile: true,
    logLevel: 'warning',
    plugins: [reportSizes],
    define: { 'process.env.NODE_ENV': JSON.stringify(production ? 'production' : 'development') },
  };

  return [
    {
      ...common,
      entryPoints: { extension: path.join(root, 'src', 'extension.ts') },
      outdir: path.join(root, 'dist'),
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      external: ['vscode'],
      plugins: [reportSizes, lazyExceljs],
      // import() of exceljs's bundle becomes a require(), loaded as the rest of the extension is.
      supported: { 'dynamic-import': false },
      // The in-VS-Code tests' handle on the extension (src/extension.ts): compiled out of the production bundle, so
      // the packaged extension hands nothing to other extensions.
      define: { ...common.define, PORTAL_TEST_HOOKS: String(!production) },
      // Source maps stay in production too so stack traces in the log point at our sources; .vscodeignore keeps them out of the .vsix.
      sourcemap: 'linked',
    },
    {
      // The worker that reads and plans a members file off the extension host's event loop, started beside it.
      ...common,
      entryPoints: {
        planWorker: path.join(root, 'src', 'features', 'members', 'plan', 'core', 'worker', 'planWorker.ts'),
      },
      outdir: path.join(root, 'dist'),
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      sourcemap: production ? false : 'linked',
    },
    {
      // The worker that reads an imported sheet with a heap of its own; it requires exceljs's bundle when it reads
      // an `.xlsx`, as the extension did.
      ...common,
      entryPoints: { sheetWorker: path.join(root, 'src', 'features', 'members', 'import', 'sheetWorker.ts') },
      outdir: path.join(root, 'dist'),
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      plugins: [reportSizes, lazyExceljs],
      supported: { 'dynamic-import': false },
      sourcemap: production ? false : 'linked',
    },
    {
      ...common,
      entryPoints: { exceljs: require.resolve('exceljs') },
      outdir: path.join(root, 'dist'),
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      sourcemap: false,
    },
    {
      ...common,
      // One bundle for every form: the pages share the web components, and the host names the form to start.
      entryPoints: { forms: path.join(root, 'src', 'webview.ts') },
      outdir: path.join(root, 'dist', 'webview'),
      platform: 'browser',
      format: 'iife',
      target: 'es2022',
      loader: { '.css': 'text', '.ttf': 'file' },
    },
  ];
}

async function main() {
  const builds = buildOptions(production);
  // A production build starts clean, so no bundle or map of a removed entry ends up in the .vsix.
  if (production) {
    fs.rmSync(path.join(root, 'dist', 'webview'), { recursive: true, force: true });
    for (const f of ['extension.js', 'extension.js.map', 'exceljs.js', 'sheetWorker.js'])
      fs.rmSync(path.join(root, 'dist', f), { force: true });
  }
  if (watch) {
    const contexts = await Promise.all(builds.map((b) => esbuild.context(b)));
    await Promise.all(contexts.map((c) => c.watch()));
    console.log('esbuild: watching for changes');
    return;
  }
  await Promise.all(builds.map((b) => esbuild.build(b)));
}

module.exports = { buildOptions };

if (require.main === module) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
