import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Scheduler, PortalError, type Ticket } from '../../../src/api';

const tick = () => new Promise<void>((r) => setImmediate(r));

void test('no more than maxConcurrent tickets at once; FIFO order', async () => {
  const s = new Scheduler({ count: 100, windowMs: 60_000 }, 2);
  const order: number[] = [];
  const tickets: Ticket[] = [];
  const waits = [0, 1, 2, 3].map((i) =>
    s.acquire().then((t) => {
      order.push(i);
      tickets.push(t);
    }),
  );
  await tick();
  assert.deepEqual(order, [0, 1]);
  assert.equal(s.waiting, 2);
  tickets[0]?.release();
  await tick();
  assert.deepEqual(order, [0, 1, 2]);
  tickets[1]?.release();
  tickets[2]?.release();
  await Promise.all(waits);
  assert.deepEqual(order, [0, 1, 2, 3]);
  tickets[3]?.release();
  s.close();
});

void test('the window budget holds requests until the oldest completion ages out', async () => {
  // A window no machine outruns: the fourth request waits, however slow the steps between.
  const full = new Scheduler({ count: 3, windowMs: 600_000 }, 10);
  for (let i = 0; i < 3; i++) (await full.acquire()).release();
  assert.equal(full.used(), 3);
  let granted = false;
  const held = full.acquire().then(
    (t) => {
      granted = true;
      t.release();
    },
    () => undefined,
  );
  await tick();
  assert.equal(granted, false, 'a fourth request must wait for the window');
  assert.equal(full.waiting, 1);
  full.close();
  await held;
  assert.equal(granted, false, 'closed while it waited: never granted');

  // A short window: the fourth request is granted once the oldest completion ages out, with no call to wake it.
  const s = new Scheduler({ count: 3, windowMs: 150 }, 10);
  for (let i = 0; i < 3; i++) (await s.acquire()).release();
  const t = await s.acquire();
  t.release();
  assert.ok(s.used() >= 1);
  s.close();
});

void test('in-flight requests count against the window', async () => {
  const s = new Scheduler({ count: 2, windowMs: 60_000 }, 10);
  const a = await s.acquire();
  await s.acquire();
  assert.equal(s.used(), 2);
  a.responded();
  assert.equal(s.used(), 2);
  s.close();
});

void test('an aborted waiter leaves the queue with a cancelled error', async () => {
  const s = new Scheduler({ count: 10, windowMs: 60_000 }, 1);
  const first = await s.acquire();
  const ac = new AbortController();
  const waiting = s.acquire(ac.signal);
  const after = s.acquire();
  ac.abort();
  await assert.rejects(waiting, (e: unknown) => e instanceof PortalError && e.kind === 'cancelled');
  assert.equal(s.waiting, 1);
  first.release();
  (await after).release();
  s.close();
});

void test('priority waiters go first', async () => {
  const s = new Scheduler({ count: 10, windowMs: 60_000 }, 1);
  const first = await s.acquire();
  const order: string[] = [];
  const normal = s.acquire().then((t) => {
    order.push('normal');
    t.release();
  });
  const prio = s.acquire(undefined, true).then((t) => {
    order.push('priority');
    t.release();
  });
  first.release();
  await Promise.all([normal, prio]);
  assert.deepEqual(order, ['priority', 'normal']);
  s.close();
});

void test('close rejects waiters', async () => {
  const s = new Scheduler({ count: 1, windowMs: 60_000 }, 1);
  await s.acquire();
  const w = s.acquire();
  s.close();
  await assert.rejects(w, (e: unknown) => e instanceof PortalError && e.kind === 'cancelled');
});
