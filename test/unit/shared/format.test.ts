import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fullDate, shortDate } from '../../../src/shared/format';

void test('dates: missing, ordinary, and finite but beyond what a Date holds', () => {
  assert.equal(fullDate(null), 'not set');
  assert.match(fullDate(Date.UTC(2025, 0, 15, 9, 0)), /^2025-01-15T09:00:00\.000Z \(local: /);
  // A portal that sends nonsense must not break a record document.
  assert.equal(fullDate(9e15), 'not a date (9000000000000000)');
  assert.equal(shortDate(undefined), '');
});
