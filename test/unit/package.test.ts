// What the manifest promises about trust: a workspace cannot set any portal.* setting (each is application-scoped,
// so VS Code ignores a workspace's value and the extension reads only the user's), numbers have bounds, and the
// workspace capabilities say what the extension does in a restricted or virtual workspace.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

interface Setting {
  scope?: string;
  type?: string;
  minimum?: number;
  maximum?: number;
}
interface Manifest {
  capabilities?: {
    untrustedWorkspaces?: { supported?: unknown };
    virtualWorkspaces?: { supported?: unknown; description?: string };
  };
  contributes: {
    configuration: { properties: Record<string, Setting> } | Array<{ properties: Record<string, Setting> }>;
  };
}

const manifest = JSON.parse(
  fs.readFileSync(path.join(import.meta.dirname, '..', '..', 'package.json'), 'utf8'),
) as Manifest;
const configuration = manifest.contributes.configuration;
const settings = (Array.isArray(configuration) ? configuration : [configuration]).flatMap((c) =>
  Object.entries(c.properties),
);

void test("every portal.* setting is application-scoped: a cloned repository's settings cannot set it", () => {
  assert.ok(settings.length > 0);
  for (const [key, s] of settings) {
    assert.ok(key.startsWith('portal.'), key);
    assert.equal(s.scope, 'application', `${key} has scope ${s.scope}`);
  }
});

void test('every number setting has a minimum and a maximum, and a minimum of at least 1 where 0 would stop every portal', () => {
  for (const [key, s] of settings.filter(([, v]) => v.type === 'integer' || v.type === 'number')) {
    assert.equal(typeof s.minimum, 'number', `${key} has no minimum`);
    assert.equal(typeof s.maximum, 'number', `${key} has no maximum`);
    if (key !== 'portal.cacheSeconds') assert.ok((s.minimum ?? 0) >= 1, `${key} may be 0`);
  }
});

void test('the workspace capabilities are declared: restricted mode is supported, a virtual workspace is limited and says why', () => {
  assert.equal(manifest.capabilities?.untrustedWorkspaces?.supported, true);
  assert.equal(manifest.capabilities?.virtualWorkspaces?.supported, 'limited');
  assert.ok(manifest.capabilities?.virtualWorkspaces?.description, 'a limited virtual workspace says what is limited');
});
