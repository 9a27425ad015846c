import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const SRC = join(__dirname, '..', '..', 'src');
/** Code that runs in a webview: the bundle's entry, the page library and each form's page. */
const pageSources = (): string[] => [
  'webview.ts',
  ...readdirSync(join(SRC, 'forms', 'page'), { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.ts'))
    .map((f) => join('forms', 'page', f)),
  ...readdirSync(join(SRC, 'features'), { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.page.ts'))
    .map((f) => join('features', f)),
];

// Server text reaches the page only as textContent or element properties; these APIs would parse it as HTML.
void test('webview sources never parse strings as HTML', () => {
  const files = pageSources();
  assert.ok(files.length > 5, files.join(', '));
  for (const f of files) {
    const text = readFileSync(join(SRC, f), 'utf8');
    for (const api of [
      'innerHTML',
      'outerHTML',
      'insertAdjacentHTML',
      'document.write',
      'createContextualFragment',
      'unsafeHTML',
    ]) {
      assert.ok(!text.includes(api), `${f} uses ${api}`);
    }
  }
});
