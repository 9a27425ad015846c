import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const UI = join(__dirname, '..', '..', '..', 'src', 'webview', 'ui');

// Server text reaches the page only as textContent or element properties; these APIs would parse it as HTML.
void test('webview sources never parse strings as HTML', () => {
  const files = readdirSync(UI, { recursive: true }).map(String).filter((f) => f.endsWith('.ts'));
  assert.ok(files.length > 0);
  for (const f of files) {
    const text = readFileSync(join(UI, f), 'utf8');
    for (const api of ['innerHTML', 'outerHTML', 'insertAdjacentHTML', 'document.write', 'createContextualFragment', 'unsafeHTML']) {
      assert.ok(!text.includes(api), `${f} uses ${api}`);
    }
  }
});
