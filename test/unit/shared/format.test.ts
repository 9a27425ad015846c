import { test } from 'node:test';
import assert from 'node:assert/strict';
import { count, countLabel, filesWord, fullDate, humanSize, relativeDays, shortDate } from '../../../src/shared/format';

void test('dates: missing, ordinary, and finite but beyond what a Date holds', () => {
  assert.equal(fullDate(null), 'not set');
  assert.match(fullDate(Date.UTC(2025, 0, 15, 9, 0)), /^2025-01-15T09:00:00\.000Z \(local: /);
  // A portal that sends nonsense must not break a record document.
  assert.equal(fullDate(9e15), 'not a date (9000000000000000)');
  assert.equal(shortDate(undefined), '');
});

void test('counts and sizes read the same in views, documents and forms', () => {
  assert.equal(count(20000), '20,000');
  assert.equal(countLabel(50, 20000), '50 of 20,000');
  assert.equal(countLabel(50, undefined), '50 loaded');
  assert.equal(countLabel(3, 2), '3 loaded', 'a total below what is loaded is not believed');
  assert.equal(humanSize(1), '1 byte');
  assert.equal(humanSize(null), 'size not reported');
  assert.equal(humanSize(5 * 1024 ** 5), '5120 TB');
});

void test("relative days and the organisation's word for files", () => {
  const now = Date.UTC(2025, 0, 15, 12);
  assert.equal(relativeDays(now, now), 'today');
  assert.equal(relativeDays(now + 86_400_000, now), 'in 1 day');
  assert.equal(relativeDays(now - 3 * 86_400_000, now), '3 days ago');
  assert.deepEqual(filesWord(undefined), { one: 'File', many: 'Files', own: false });
  assert.deepEqual(filesWord({ file: 'Document', files: 'Documents' }), {
    one: 'Document',
    many: 'Documents',
    own: true,
  });
  assert.deepEqual(filesWord({ files: '  ' }), { one: 'File', many: 'Files', own: false });
});
