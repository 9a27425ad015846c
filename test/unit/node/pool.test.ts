// The feature cores' concurrency: a bounded number of workers in index order, no new item once the signal aborts
// or a worker throws, and the small waits and hand-offs built on a signal.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HandOff, linkedSignal, pause, runPool, withLinkedSignal } from '../../../src/node/pool';

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

void test('runPool: never more than `concurrency` at once, items taken in index order, every item done', async () => {
  let running = 0;
  let most = 0;
  const started: number[] = [];
  const result = await runPool([...Array(10).keys()], 3, async (_item, index) => {
    started.push(index);
    running++;
    most = Math.max(most, running);
    await tick();
    running--;
  });
  assert.equal(most, 3);
  assert.deepEqual(started, [...Array(10).keys()]);
  assert.deepEqual(result.notStarted, []);
});

void test('runPool: once the signal aborts no item is started; the running ones finish; the rest are listed', async () => {
  const controller = new AbortController();
  const finished: number[] = [];
  const result = await runPool(
    [0, 1, 2, 3, 4, 5],
    2,
    async (item) => {
      if (item === 1) controller.abort();
      await tick();
      finished.push(item);
    },
    controller.signal,
  );
  assert.deepEqual(finished.sort(), [0, 1]);
  assert.deepEqual(result.notStarted, [2, 3, 4, 5]);
});

void test('runPool: the first error is thrown once the running items settle, and no further item starts', async () => {
  const started: number[] = [];
  let settled = 0;
  await assert.rejects(
    runPool([0, 1, 2, 3, 4], 2, async (item) => {
      started.push(item);
      await tick();
      settled++;
      if (item === 0) throw new Error('first');
      if (item === 1) throw new Error('second');
    }),
    /first/,
  );
  assert.deepEqual(started, [0, 1]);
  assert.equal(settled, 2, 'the item running beside the failure was waited for');
});

void test('runPool: a concurrency of 0 or a fraction still runs one at a time', async () => {
  let most = 0;
  let running = 0;
  await runPool([1, 2, 3], 0.5, async () => {
    most = Math.max(most, ++running);
    await tick();
    running--;
  });
  assert.equal(most, 1);
});

void test('pause: waits, and ends at once when the signal aborts', async () => {
  const controller = new AbortController();
  let done = false;
  const waiting = pause(60_000, controller.signal).then(() => (done = true));
  await tick();
  assert.equal(done, false);
  controller.abort();
  await waiting;
  assert.equal(done, true);
  await pause(60_000, controller.signal); // already aborted: at once
});

void test('HandOff: items in order as they come, undefined once ended, the failure thrown, undefined on abort', async () => {
  const queue = new HandOff<number>();
  const signal = new AbortController().signal;
  const first = queue.next(signal);
  queue.push(1);
  queue.push(2);
  assert.equal(await first, 1);
  assert.equal(await queue.next(signal), 2);
  queue.end();
  assert.equal(await queue.next(signal), undefined);

  const failing = new HandOff<number>();
  const waiting = failing.next(signal);
  failing.fail(new Error('producer failed'));
  await assert.rejects(waiting, /producer failed/);

  const controller = new AbortController();
  const idle = new HandOff<number>();
  const parked = idle.next(controller.signal);
  controller.abort();
  assert.equal(await parked, undefined);
});

void test('linkedSignal and withLinkedSignal: abort with the outer signal, and end when the work settles', async () => {
  const outer = new AbortController();
  const linked = linkedSignal(outer.signal, 4);
  assert.equal(linked.signal.aborted, false);
  outer.abort();
  assert.equal(linked.signal.aborted, true);
  linked.dispose();

  const aborted = new AbortController();
  aborted.abort();
  assert.equal(linkedSignal(aborted.signal, 1).signal.aborted, true, 'an outer signal already aborted');

  let inner: AbortSignal | undefined;
  const value = await withLinkedSignal(undefined, 2, async (signal) => {
    inner = signal;
    assert.equal(signal.aborted, false);
    return 'done';
  });
  assert.equal(value, 'done');
  assert.equal(inner?.aborted, true, 'disposed once the work settled');
});
