import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PortalError, parseEnvelope, pageFromArray } from '../../../src/api';

const invalid = (e: unknown) => e instanceof PortalError && e.kind === 'invalid-response';

void test('page envelopes', () => {
  const p3 = parseEnvelope(
    'items',
    { items: [1, 2], currentPage: 2, totalPages: 5, pageSize: 2, totalResults: 10, nextPage: true },
    (x) => x,
    { page: 2, size: 2 },
  );
  assert.deepEqual(p3, { items: [1, 2], page: 2, pageSize: 2, hasNext: true, totalResults: 10, totalPages: 5 });
  const p2 = parseEnvelope('page', { page: [1], currentPage: 3, pageSize: 20, nextPage: false }, (x) => x, {
    page: 3,
    size: 20,
  });
  assert.equal(p2.hasNext, false);
  assert.ok(!('totalResults' in p2));
  assert.throws(() => parseEnvelope('page', { items: [] }, (x) => x, { page: 1, size: 1 }), invalid);
  assert.equal(pageFromArray([1, 2], { page: 1, size: 2 }).hasNext, true);
  assert.equal(pageFromArray([1], { page: 1, size: 2 }).hasNext, false);
});
