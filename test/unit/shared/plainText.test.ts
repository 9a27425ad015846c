// Server text as VS Code's own surfaces will see it: plain() leaves no link, icon, direction override or line break.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isPlain, plain } from '../../../src/shared/plainText';

void test('plain(): a command link in server text is no link any more, and reads the same', () => {
  const out = plain('Denied [Fix](command:workbench.action.openSettings)');
  assert.ok(!out.includes(']('), out);
  assert.equal(out.replace(/\u200b/g, ''), 'Denied [Fix](command:workbench.action.openSettings)');
  assert.ok(isPlain(out));
});

void test('plain(): icon syntax is shown as text, not as an icon', () => {
  const out = plain('$(alert) $(sync~spin) Quarterly');
  assert.ok(!out.includes('$('), out);
  assert.equal(out.replace(/\u200b/g, ''), '$(alert) $(sync~spin) Quarterly');
});

/** The pattern VS Code's notifications and dialogs use to turn text into links (the same one, as an oracle). */
const VSCODE_LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/gi;
/** The pattern VS Code's labels, quick picks and status bar use to render an icon. */
const VSCODE_ICON = /\$\([A-Za-z0-9-]+(?:~[A-Za-z]+)?\)/g;

void test('plain(): nothing VS Code would render as a link or an icon survives, whatever the payload', () => {
  const payloads = [
    'Denied [Fix](command:workbench.action.openSettings)',
    '[a](https://evil.example "title") [b](file:///etc/passwd)',
    '[x](command:portal.member.delete?%5B%22a%22%5D)',
    '$(alert) $(sync~spin) $(x-y-z)',
    '[$(alert)](command:x)',
    '](($((',
  ];
  for (const text of payloads) {
    assert.ok(
      VSCODE_LINK.test(text) || new RegExp(VSCODE_ICON.source).test(text) || text === '](($((',
      `the oracle sees the payload: ${text}`,
    );
    VSCODE_LINK.lastIndex = 0;
    for (const options of [{}, { multiline: true }]) {
      const out = plain(text, options);
      assert.equal(out.match(VSCODE_LINK), null, `a link survived: ${out}`);
      assert.equal(out.match(VSCODE_ICON), null, `an icon survived: ${out}`);
      assert.equal(out.replace(/\u200b/g, ''), text, 'a person reads the same text');
    }
  }
});

void test('plain(): bidi overrides are dropped and line breaks become spaces (one value, one line)', () => {
  assert.equal(plain('invoice\u202Efdp.exe'), 'invoicefdp.exe');
  assert.equal(plain('a\u2066b\u2069c\u200Fd'), 'abcd');
  assert.equal(plain('line one\nline two\r\n\tthree'), 'line one line two three');
  assert.equal(plain('para\n\npara', { multiline: true }), 'para\n\npara');
  assert.equal(plain(undefined), '');
  assert.equal(plain(42), '42');
});

void test('plain(): long server text is cut, with an ellipsis', () => {
  const out = plain('x'.repeat(5000));
  assert.equal(out.length, 1000);
  assert.ok(out.endsWith('…'));
  assert.equal(plain('x'.repeat(50), { maxLength: 10 }).length, 10);
});
