// What the packaged extension hands to other extensions: the production bundle, built in memory with the options
// `esbuild.js --production` uses, carries none of the test handle that development and test builds export.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import type { BuildOptions } from 'esbuild';
import * as esbuild from 'esbuild';

const require = createRequire(import.meta.url);
const { buildOptions } = require('../../esbuild.js') as { buildOptions: (production: boolean) => BuildOptions[] };

/** The extension host bundle's text, built without writing anything. */
async function extensionBundle(production: boolean): Promise<string> {
  const options = buildOptions(production)[0];
  assert.ok(options);
  const result = await esbuild.build({ ...options, write: false, sourcemap: false, plugins: [], logLevel: 'silent' });
  const js = result.outputFiles.find((f) => f.path.endsWith('extension.js'));
  assert.ok(js, 'the build wrote extension.js');
  return js.text;
}

/** Names only the test handle uses: property names survive minification. */
const HOOK_NAMES = ['readStoredCredentials', 'storeCredentials', 'useUi', 'PORTAL_TEST_HOOKS'];

void describe('the extension bundle', () => {
  void test('the development build carries the test handle (so the check below looks at the right names)', async () => {
    const text = await extensionBundle(false);
    for (const name of HOOK_NAMES.slice(0, 3)) assert.ok(text.includes(name), `${name} is in the development bundle`);
  });

  void test('the production build has no test handle: nothing for another extension to reach the registry with', async () => {
    const text = await extensionBundle(true);
    assert.deepEqual(
      HOOK_NAMES.filter((name) => text.includes(name)),
      [],
    );
  });
});

void describe('the plan worker bundle', () => {
  void test('carries no HTTP client: the worker plans from what the host read, and the .vsix stays small', async () => {
    const options = buildOptions(true).find((o) => JSON.stringify(o.entryPoints ?? {}).includes('planWorker'));
    assert.ok(options, 'esbuild.js builds the plan worker');
    const result = await esbuild.build({ ...options, write: false, sourcemap: false, logLevel: 'silent' });
    const inputs = Object.keys(result.metafile?.inputs ?? {});
    assert.ok(inputs.length > 0, 'the build says what it read');
    assert.deepEqual(
      inputs.filter((i) => /node_modules\/undici\/|src\/api\/(client|dispatcher)\.ts$/.test(i)),
      [],
    );
  });
});
