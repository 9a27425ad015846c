// Every sentence that names what a portal answer holds is in the l10n bundle, so none reaches a user in English:
// with a bundle that marks each of its strings, every noun's sentences come back marked.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as l10n from '@vscode/l10n';
import { invalidModel, PortalError } from '../../../../src/api';
import { parseArray, requireObject } from '../../../../src/api/models/read';
import { LIST_RESOURCES, listTooLong, notAList, RESOURCES, sentWithout } from '../../../../src/api/models/resources';

const bundle = JSON.parse(
  readFileSync(join(import.meta.dirname, '../../../../l10n/bundle.l10n.json'), 'utf8'),
) as Record<string, string | { message: string }>;

before(() => {
  const marked: Record<string, string> = {};
  for (const [key, value] of Object.entries(bundle))
    marked[key] = `«${typeof value === 'string' ? value : value.message}»`;
  l10n.config({ contents: marked });
});

const isMarked = (s: string) => s.startsWith('«') && s.endsWith('»');

void test('each noun has its own sentences in the bundle, whatever is missing', () => {
  assert.ok(RESOURCES.length >= 14 && LIST_RESOURCES.length >= 7);
  for (const r of RESOURCES) assert.ok(isMarked(sentWithout(r, 'its "id"')), r);
  for (const r of LIST_RESOURCES) {
    assert.ok(isMarked(notAList(r)), r);
    assert.ok(isMarked(listTooLong(r, '100,001', '100,000')), r);
  }
});

void test('the parse errors users see are the bundled sentences, with the part that is missing', () => {
  const missing = invalidModel('file record', 'its "id"');
  assert.ok(isMarked(missing.message) && missing.message.includes('its "id"'), missing.message);
  assert.throws(
    () => requireObject(null, 'member'),
    (e: unknown) => e instanceof PortalError && isMarked(e.message) && e.kind === 'invalid-response',
  );
  assert.throws(
    () => parseArray({}, 'groups', (x) => x),
    (e: unknown) => e instanceof PortalError && isMarked(e.message) && /groups/.test(e.message),
  );
});
