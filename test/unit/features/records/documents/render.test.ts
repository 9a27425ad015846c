import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  isDirectoryPath,
  knownQuery,
  parseKnown,
  parseTarget,
  safeSegment,
  targetPath,
  type KnownRecord,
  type PortalTarget,
} from '../../../../../src/features/records/documents/uri';
import { recordPath, renderFileRecord } from '../../../../../src/features/records/documents/render';
import { text } from '../../../../../src/shared/markdown';
import { parseFileRecord } from '../../../../../src/api';
import { humanSize, iconForContentType, isTextContentType } from '../../../../../src/shared/format';
import { freeName, localFileName } from '../../../../../src/features/records/download/fileNames';

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
  assert.equal(
    freeName('/d', 'report.pdf', (p) => taken.has(p)),
    'report (2).pdf',
  );
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

void test('what the Explorer knew of a record survives a round trip through the URI query, and a bad query adds nothing', () => {
  const known: KnownRecord = {
    groupLabel: 'Engineering & Ops',
    folders: [
      { id: 7, name: 'src' },
      { id: 9, name: 'a:b / c' },
    ],
    size: 1234,
    lastModified: 1_736_931_600_000,
    contentType: 'text/plain',
  };
  assert.deepEqual(parseKnown(knownQuery(known)), known);
  assert.deepEqual(parseKnown(knownQuery({ folders: [] })), { folders: [] }, 'at the root');
  assert.equal(parseKnown(knownQuery({ size: null })), undefined, 'an unreported size is not carried');
  assert.deepEqual(
    parseKnown('f=7:src&f=oops&s=-1&m=x'),
    {},
    'half a path is no path; numbers that are not sizes are dropped',
  );
  const t = parseTarget('p', '/accounts/1/groups/101/files/5/README.md (record).md', knownQuery(known));
  assert.deepEqual(t?.kind === 'record' ? t.known : undefined, known);
});

const listed = (over: Record<string, unknown>) =>
  parseFileRecord(
    { id: 100001, name: 'format.ts', contentType: 'text/typescript', size: null, path: null, group: null, ...over },
    'portal',
  );

void test('a record whose portal reports no size says "size not reported", never "0 bytes"', () => {
  const f = listed({});
  assert.equal(f.size, null);
  assert.equal(humanSize(null), 'size not reported');
  const doc = renderFileRecord(f, { portalLabel: 'P', accountId: 1, groupId: 101 });
  assert.match(doc, /\*\*Size:\*\* size not reported$/m);
  assert.doesNotMatch(doc, /0 bytes/);
});

void test("a record's Path names the group and every folder: from the record, else from what the Explorer walked", () => {
  const ctx = {
    portalLabel: 'P',
    accountId: 1,
    groupId: 601,
    groupLabel: 'Engineering',
    folders: [{ name: 'src' }, { name: 'utils' }],
  };
  assert.deepEqual(
    recordPath(listed({}), ctx),
    ['Engineering', 'src', 'utils', 'format.ts'],
    'a listed record carries neither group nor path',
  );
  const read = listed({
    path: [{ id: 7, name: 'lib' }],
    group: { id: 601, name: 'eng', friendlyName: 'Engineering (read)' },
  });
  assert.deepEqual(
    recordPath(read, ctx),
    ['Engineering (read)', 'lib', 'format.ts'],
    "the record's own path and group win",
  );
  assert.deepEqual(
    recordPath(listed({}), { portalLabel: 'P', accountId: 1, groupId: 601 }),
    ['group 601', 'format.ts'],
    'with nothing known, the id',
  );
  const lean = renderFileRecord(listed({}), {
    ...ctx,
    lean: true,
    notices: ['The portal offers no read of a single file record.'],
  });
  assert.match(lean, /^> The portal offers no read of a single file record\.$/m);
  assert.match(lean, /\*\*Versions:\*\* not in the listing/);
});
