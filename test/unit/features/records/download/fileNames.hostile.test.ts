// Names from a hostile portal as the local file system will see them: a downloaded file's or folder's local name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  isToolFolderName,
  localFileName,
  MAX_NAME_BYTES,
  truncateBytes,
} from '../../../../../src/features/records/download/fileNames';

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
