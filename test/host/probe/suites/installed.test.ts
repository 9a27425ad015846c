// Runs beside the Portal extension installed from dist/portal-vscode.vsix (no development copy is
// loaded): what the package contains must activate and register everything package.json promises.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { itActivatesWithEveryContribution } from '../../../vscode/support/contributions';
import { extensionId, extensionRoot, readManifest } from '../../../vscode/support/manifest';

describe('packaged .vsix', () => {
  const manifest = readManifest();
  const id = extensionId(manifest);

  it('is installed (found by id, loaded from the extensions dir, not the repository)', () => {
    const ext = vscode.extensions.getExtension(id);
    assert.ok(ext, `${id} is installed`);
    assert.notEqual(fs.realpathSync(ext.extensionPath), fs.realpathSync(extensionRoot()));
    assert.equal(ext.packageJSON.version, manifest.version);
    assert.ok(fs.existsSync(path.join(ext.extensionPath, String(ext.packageJSON.main))), 'its main file is in the package');
  });

  itActivatesWithEveryContribution(manifest);
});
