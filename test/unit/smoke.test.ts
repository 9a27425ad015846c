import { test } from 'node:test';
import assert from 'node:assert/strict';

test('unit tier runs TypeScript through tsx', () => {
  const n: number = [1, 2, 3].reduce((a, b) => a + b, 0);
  assert.equal(n, 6);
});
