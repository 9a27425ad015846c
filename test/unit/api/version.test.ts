import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLIENT_VERSION, DEFAULT_USER_AGENT } from '../../../src/api';

void test('the User-Agent version matches package.json', () => {
  const pkg = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', '..', 'package.json'), 'utf8')) as {
    version: string;
  };
  assert.equal(CLIENT_VERSION, pkg.version);
  assert.equal(DEFAULT_USER_AGENT, `portal-vscode/${pkg.version}`);
});
