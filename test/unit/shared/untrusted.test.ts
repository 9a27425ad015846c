// Server text and names from a hostile portal, as VS Code's own surfaces and the local file system will see them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isPlain, plain } from '../../../src/shared/plainText';
import {
  isToolFolderName,
  localFileName,
  MAX_NAME_BYTES,
  truncateBytes,
} from '../../../src/features/records/download/fileNames';

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

void test('download names: Windows device names are never used as they are', () => {
  for (const name of [
    'CON',
    'con.txt',
    'CON .txt',
    'COM¹',
    'lpt².log',
    'CONIN$',
    'conout$.txt',
    'NUL',
    'aux.tar.gz',
    'CLOCK$',
  ]) {
    assert.match(localFileName(name), /^download-/, name);
  }
  for (const name of ['console.txt', 'COM10', 'conflicts.md', 'null']) {
    assert.equal(localFileName(name), name, name);
  }
});

void test('download names: bidi controls and invisible characters are dropped; dots cannot climb', () => {
  assert.equal(localFileName('invoice\u202Efdp.exe'), 'invoicefdp.exe');
  assert.equal(localFileName('a\u200bb\ufeff.txt'), 'ab.txt');
  assert.equal(localFileName('..'), 'download-file');
  assert.equal(localFileName('.'), 'download-file');
  assert.equal(localFileName('../../etc/passwd'), '.._.._etc_passwd');
  assert.equal(localFileName('report. . '), 'report');
});

void test('download names: never a folder tools run commands from, however the portal spells it', () => {
  const renamed: Array<[string, string]> = [
    ['.git', '_git'],
    ['.GIT', '_GIT'],
    ['.git.', '_git'],
    ['.git ', '_git'],
    [' .Git. . ', '_Git'],
    ['.g\u200cit', '_git'],
    ['.g\u206ait', '_git'],
    ['.vscode', '_vscode'],
    ['.VSCode ', '_VSCode'],
    ['git~1', '_git~1'],
    ['GIT~12', '_GIT~12'],
    ['VSCODE~1', '_VSCODE~1'],
    ['.git~1', '_git~1'],
    [`.git${' '.repeat(300)}x`, '_git'],
  ];
  for (const [name, local] of renamed) {
    assert.equal(localFileName(name), local, JSON.stringify(name));
    assert.ok(isToolFolderName(name), JSON.stringify(name));
    assert.equal(localFileName(local), local, 'a renamed name stays as it is');
  }
  for (const name of [
    'git',
    'vscode',
    '.gitignore',
    '.github',
    '.gitattributes',
    'x.git',
    '.vscode-test',
    'git~',
    '_git',
  ])
    assert.equal(localFileName(name), name, name);
});

void test('download names: at most MAX_NAME_BYTES of UTF-8, extension kept, no character split', () => {
  const long = `${'é'.repeat(200)}.txt`; // 404 bytes
  const out = localFileName(long);
  assert.ok(Buffer.byteLength(out, 'utf8') <= MAX_NAME_BYTES, `${Buffer.byteLength(out, 'utf8')} bytes`);
  assert.ok(out.endsWith('.txt'));
  assert.ok(!out.includes('\ufffd'));
  const emoji = truncateBytes('😀'.repeat(100), 10); // 4 bytes each
  assert.equal(emoji, '😀😀');
});

void test('maps keyed by server names: "constructor", "__proto__" and "toString" are ordinary keys', async () => {
  const { parseMemberV2, ownValue } = await import('../../../src/api');
  const member = parseMemberV2(
    JSON.parse(
      '{"user":{"id":1,"username":"a"},"accountPermission":1,"groups":{"constructor":4,"__proto__":16,"..":1}}',
    ),
  );
  assert.equal(ownValue(member.groups, 'constructor'), 4);
  assert.equal(ownValue(member.groups, '__proto__'), 16);
  assert.equal(ownValue(member.groups, '..'), 1);
  assert.equal(ownValue(member.groups, 'toString'), undefined, 'not Object.prototype.toString');
  assert.equal(ownValue(member.groups, 'hasOwnProperty'), undefined);
  assert.equal(Object.getPrototypeOf(member.groups), null);
});
