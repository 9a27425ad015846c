import { test } from 'node:test';
import assert from 'node:assert/strict';
import { recordPath, renderFileRecord } from '../../../../../../src/features/records/documents/page/render';
import { text } from '../../../../../../src/shared/markdown';
import { parseFileRecord } from '../../../../../../src/api';
import { humanSize, iconForContentType, isTextContentType } from '../../../../../../src/shared/format';

const listed = (over: Record<string, unknown>) =>
  parseFileRecord(
    { id: 100001, name: 'format.ts', contentType: 'text/typescript', size: null, path: null, group: null, ...over },
    'portal',
  );

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
