import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isDirectoryPath, parseTarget, safeSegment, targetPath, type PortalTarget } from '../../../src/features/records/uri';
import { text } from '../../../src/features/records/render';
import { humanSize, iconForContentType, isTextContentType } from '../../../src/shared/format';
import { freeName, localFileName } from '../../../src/features/records/fileNames';

void test('every portal: target survives a round trip through its URI path', () => {
  const targets: PortalTarget[] = [
    { kind: 'record', portalId: 'p', accountId: 1, groupId: 101, fileId: 100001, name: 'README.md' },
    { kind: 'content', portalId: 'p', accountId: 1, groupId: 101, fileId: 100001, name: 'README.md' },
    { kind: 'group', portalId: 'p', accountId: 1, groupId: 101, name: 'Engineering' },
    { kind: 'account', portalId: 'p', accountId: 1, name: 'Acme' },
    { kind: 'application', portalId: 'p', clientId: 'demo-abc/1', name: 'Sync' },
  ];
  for (const t of targets) {
    const back = parseTarget(t.portalId, targetPath(t));
    assert.ok(back, targetPath(t));
    const { name: _a, ...ids } = t;
    const { name: _b, ...backIds } = back;
    assert.deepEqual(backIds, ids);
  }
  assert.equal(parseTarget('p', '/accounts/1/groups/x/files/2/a.md'), undefined);
  assert.equal(parseTarget('', targetPath(targets[0]!)), undefined);
  assert.ok(isDirectoryPath('/accounts/1/groups/101/files/5/content'));
  assert.ok(!isDirectoryPath('/accounts/1/groups/101/files/5/content/x'));
});

void test('names become one safe path segment', () => {
  assert.equal(safeSegment('a/b\\c'), 'a∕b∕c');
  assert.equal(safeSegment('..'), 'untitled');
  assert.equal(localFileName('con'), 'download-con');
  assert.equal(localFileName('a<b>:c?.txt'), 'a_b__c_.txt');
  const taken = new Set(['/d/report.pdf', '/d/report (1).pdf']);
  assert.equal(freeName('/d', 'report.pdf', (p) => taken.has(p)), 'report (2).pdf');
});

void test('server text in record documents cannot become markup', () => {
  assert.equal(text('<img src=x onerror=alert(1)>'), '\\<img src=x onerror=alert(1)\\>');
  assert.equal(text('my_file.txt'), 'my_file.txt');
  assert.equal(text('*bold* [link](x)'), '\\*bold\\* \\[link\\](x)');
  assert.equal(text('two\nlines'), 'two lines');
  assert.equal(text(null), '—');
});

void test('sizes, icons and text types', () => {
  assert.equal(humanSize(0), '0 bytes');
  assert.equal(humanSize(1536), '1.5 KB');
  assert.equal(humanSize(100 * 1024 ** 3), '100 GB');
  assert.equal(iconForContentType('@folder'), 'folder');
  assert.equal(iconForContentType('image/png'), 'file-media');
  assert.equal(iconForContentType('application/pdf'), 'file-pdf');
  assert.ok(isTextContentType('text/csv'));
  assert.ok(isTextContentType('application/octet-stream', 'notes.md'));
  assert.ok(!isTextContentType('image/png', 'a.png'));
});
