// The extension under development loads into a real VS Code 1.100 and keeps every promise its
// package.json makes (commands, views). Contributions are read from package.json at run time.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { TEST_ENV } from '../../../protocol';
import { itActivatesWithEveryContribution } from '../../../support/contributions';
import { extensionId, extensionRoot, readManifest, runContext } from '../../../support/manifest';

describe('activation', () => {
  const manifest = readManifest();
  const id = extensionId(manifest);

  it('runs in the VS Code the runner launched (1.100.x)', function () {
    const context = runContext();
    if (!context) this.skip(); // started by F5, not by test/host/run.ts
    assert.equal(vscode.version, context.vscodeVersion);
    assert.equal(vscode.version, process.env[TEST_ENV.vscodeVersion]);
    assert.match(vscode.version, /^1\.100\.\d+$/);
  });

  it("receives the runner's environment in the extension host", function () {
    const context = runContext();
    if (!context) this.skip();
    assert.equal(process.env[TEST_ENV.marker], context.marker);
  });

  it(`finds the extension under development by its id`, () => {
    const ext = vscode.extensions.getExtension(id);
    assert.ok(ext, `${id} is loaded`);
    assert.equal(
      fs.realpathSync(ext.extensionPath),
      fs.realpathSync(extensionRoot()),
      'it is the development copy, not an installed one',
    );
    assert.equal(ext.packageJSON.version, manifest.version);
  });

  itActivatesWithEveryContribution(manifest);
});
