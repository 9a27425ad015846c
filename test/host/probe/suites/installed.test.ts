// Runs beside the Portal extension installed from dist/portal-vscode.vsix (no development copy is
// loaded): what the package contains must activate and register everything package.json promises.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { nlsKey, shownText, visibleTexts } from '../../../../scripts/l10n-manifest.mjs';
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
    assert.ok(
      fs.existsSync(path.join(ext.extensionPath, String(ext.packageJSON.main))),
      'its main file is in the package',
    );
  });

  it('shows its titles, names and descriptions in English (package.nls.json is in the package)', () => {
    const ext = vscode.extensions.getExtension(id);
    assert.ok(ext);
    const unresolved = [...visibleTexts(ext.packageJSON as object)]
      .filter((t) => nlsKey(shownText(t.value)) !== undefined)
      .map((t) => `${t.path}: ${shownText(t.value)}`);
    assert.deepEqual(unresolved, []);
    assert.equal(
      ext.packageJSON.displayName,
      JSON.parse(fs.readFileSync(path.join(extensionRoot(), 'package.nls.json'), 'utf8')).displayName,
    );
  });

  it('carries the English string bundle and no pseudo-locale file', () => {
    const ext = vscode.extensions.getExtension(id);
    assert.ok(ext);
    assert.ok(
      fs.existsSync(path.join(ext.extensionPath, 'l10n', 'bundle.l10n.json')),
      'l10n/bundle.l10n.json is in the package',
    );
    const files = fs.readdirSync(ext.extensionPath, { recursive: true }).map(String);
    assert.deepEqual(
      files.filter((f) => f.includes('qps-ploc')),
      [],
    );
  });

  itActivatesWithEveryContribution(manifest);
});
