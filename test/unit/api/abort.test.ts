// Waiting on a promise under a signal: the value, or undefined once the signal aborts, the promise running on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { unlessAborted } from '../../../src/api/abort';

void test('unlessAborted: the value, or undefined as soon as the signal aborts; a rejection passes through', async () => {
  assert.equal(await unlessAborted(Promise.resolve(7), new AbortController().signal), 7);
  const controller = new AbortController();
  const never = new Promise<number>(() => undefined);
  const answer = unlessAborted(never, controller.signal);
  controller.abort();
  assert.equal(await answer, undefined);
  await assert.rejects(unlessAborted(Promise.reject(new Error('no')), new AbortController().signal), /no/);
});
