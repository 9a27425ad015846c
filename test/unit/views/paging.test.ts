import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PagedList, decompose, type PageFetcher } from '../../../src/views/paging';
import type { TreeKey } from '../../../src/shared/keys';
import { ListCache } from '../../../src/views/listCache';

interface Row {
  id: number;
}

/** A server list of rows 1..n that the test can change between pages. */
function server(n: number, withTotal = true) {
  let rows: Row[] = Array.from({ length: n }, (_, i) => ({ id: i + 1 }));
  const calls: number[] = [];
  const fetch: PageFetcher<Row> = async ({ page, size }) => {
    calls.push(page);
    const items = rows.slice((page - 1) * size, page * size);
    return { items, hasMore: page * size < rows.length, ...(withTotal ? { total: rows.length } : {}) };
  };
  return {
    fetch,
    calls,
    remove: (id: number) => void (rows = rows.filter((r) => r.id !== id)),
    insertFirst: (id: number) => void (rows = [{ id }, ...rows]),
    all: () => rows.map((r) => r.id),
  };
}

async function walk(list: PagedList<Row>): Promise<void> {
  await list.ensureFirstPage();
  for (let i = 0; i < 1000 && list.hasMore; i++) await list.loadMore();
}

void test('walks every page once and ends', async () => {
  const s = server(23);
  const list = new PagedList(s.fetch, (r) => r.id, 5);
  await walk(list);
  assert.deepEqual(
    list.items.map((r) => r.id),
    s.all(),
  );
  assert.deepEqual(s.calls, [1, 2, 3, 4, 5]);
  assert.equal(list.hasMore, false);
  assert.equal(list.total, 23);
});

void test('the first page is asked once even when VS Code asks twice', async () => {
  const s = server(10);
  const list = new PagedList(s.fetch, (r) => r.id, 5);
  await Promise.all([list.ensureFirstPage(), list.ensureFirstPage()]);
  await list.ensureFirstPage();
  assert.deepEqual(s.calls, [1]);
});

void test('concurrent "load more" share one request', async () => {
  const s = server(20);
  const list = new PagedList(s.fetch, (r) => r.id, 5);
  await list.ensureFirstPage();
  await Promise.all([list.loadMore(), list.loadMore(), list.loadMore()]);
  assert.deepEqual(s.calls, [1, 2]);
  assert.equal(list.count, 10);
});

void test('rows inserted before the end are not duplicated', async () => {
  const s = server(12);
  const list = new PagedList(s.fetch, (r) => r.id, 5);
  await list.ensureFirstPage();
  s.insertFirst(100);
  s.insertFirst(101);
  await walk(list);
  const ids = list.items.map((r) => r.id);
  assert.equal(new Set(ids).size, ids.length);
  for (let id = 1; id <= 12; id++) assert.ok(ids.includes(id), `row ${id} present`);
});

void test('rows deleted before the end do not make later rows skipped', async () => {
  const s = server(15);
  const list = new PagedList(s.fetch, (r) => r.id, 5);
  await list.ensureFirstPage();
  s.remove(2);
  s.remove(3);
  await walk(list);
  const ids = list.items.map((r) => r.id);
  assert.equal(new Set(ids).size, ids.length);
  for (const id of s.all()) assert.ok(ids.includes(id), `row ${id} present`);
});

void test('a failed page keeps the rows, reports the error and retries', async () => {
  const s = server(10);
  let fail = false;
  const list = new PagedList<Row>(
    async (r) => {
      if (fail) throw new Error('boom');
      return s.fetch(r);
    },
    (r) => r.id,
    5,
  );
  fail = true;
  await assert.rejects(list.ensureFirstPage(), /boom/);
  assert.equal(list.loaded, false);
  fail = false;
  await list.ensureFirstPage();
  assert.equal(list.count, 5);
  fail = true;
  await assert.rejects(list.loadMore(), /boom/);
  assert.ok(list.error instanceof Error);
  assert.equal(list.count, 5);
  fail = false;
  await list.loadMore();
  assert.equal(list.error, undefined);
  assert.equal(list.count, 10);
});

void test('a server that always says "more" cannot loop the walk', async () => {
  const list = new PagedList<Row>(
    async ({ page }) => ({ items: page === 1 ? [{ id: 1 }] : [], hasMore: true }),
    (r) => r.id,
    5,
  );
  await walk(list);
  assert.equal(list.hasMore, false);
});

void test('cache: fresh lists are reused, stale ones replaced, prefixes dropped', async () => {
  let now = 1000;
  const cache = new ListCache(
    () => 30_000,
    () => now,
  );
  const s = server(10);
  const make = () =>
    new PagedList(
      s.fetch,
      (r: Row) => r.id,
      5,
      () => now,
    );
  const a = cache.get('p/a:1', make);
  await a.ensureFirstPage();
  assert.equal(cache.get('p/a:1', make), a);
  now += 31_000;
  const b = cache.get('p/a:1', make);
  assert.notEqual(b, a);
  cache.get('p/a:1/g:2', make);
  cache.get('p/a:10', make);
  cache.drop('p/a:1' as TreeKey);
  assert.equal(cache.peek('p/a:1'), undefined);
  assert.equal(cache.peek('p/a:1/g:2'), undefined);
  assert.ok(cache.peek('p/a:10'));
});

void test('cache: expired lists stay readable until the next get replaces them, however fresh', async () => {
  const cache = new ListCache(
    () => 30_000,
    () => 1000,
  );
  const s = server(10);
  const make = () =>
    new PagedList(
      s.fetch,
      (r: Row) => r.id,
      5,
      () => 1000,
    );
  const a = cache.get('p/a:1', make);
  await a.ensureFirstPage();
  const below = cache.get('p/a:1/g:2', make);
  const other = cache.get('p/a:10', make);
  cache.expire('p/a:1' as TreeKey);
  assert.equal(cache.peek('p/a:1'), a, 'still there to show its rows');
  assert.ok(cache.isExpired(a) && cache.isExpired(below) && !cache.isExpired(other));
  const b = cache.get('p/a:1', make);
  assert.notEqual(b, a);
  assert.equal(cache.isExpired(b), false);
  assert.equal(cache.get('p/a:1', make), b);
  assert.equal(cache.get('p/a:10', make), other);
  cache.expire();
  assert.ok(cache.isExpired(b) && cache.isExpired(other));
});

void test('folding: aligned ranges, largest first, few of them', () => {
  assert.deepEqual(decompose(0, 300), [
    { start: 0, size: 100 },
    { start: 100, size: 100 },
    { start: 200, size: 100 },
  ]);
  const big = decompose(0, 23_400);
  assert.deepEqual(big.slice(0, 3), [
    { start: 0, size: 10_000 },
    { start: 10_000, size: 10_000 },
    { start: 20_000, size: 1_000 },
  ]);
  assert.equal(
    big.reduce((n, r) => n + r.size, 0),
    23_400,
  );
  assert.ok(big.length <= 9 * 3);
  for (let i = 1; i < big.length; i++) assert.equal(big[i]?.start, (big[i - 1]?.start ?? 0) + (big[i - 1]?.size ?? 0));
  assert.ok(decompose(0, 49_900).length <= 27);
});

/** A portal that ignores paging: every page is the whole list. */
function wholeEveryTime(n: number) {
  const rows: Row[] = Array.from({ length: n }, (_, i) => ({ id: i + 1 }));
  const calls: number[] = [];
  const fetch: PageFetcher<Row> = async ({ page, size }) => {
    calls.push(page);
    // What the API layer says of a plain array: longer than asked means no next page; exactly as long, maybe one.
    return { items: rows, hasMore: rows.length === size };
  };
  return { fetch, calls };
}

void test('a portal that ignores paging: a list longer than the page is loaded once, no "Load more"', async () => {
  const s = wholeEveryTime(12);
  const list = new PagedList(s.fetch, (r) => r.id, 5);
  await walk(list);
  assert.equal(list.count, 12);
  assert.equal(list.hasMore, false);
  assert.deepEqual(s.calls, [1]);
});

void test('a page that adds no new row ends the list, however the portal answers', async () => {
  const s = wholeEveryTime(5);
  const list = new PagedList(s.fetch, (r) => r.id, 5);
  await walk(list);
  assert.deepEqual(
    list.items.map((r) => r.id),
    [1, 2, 3, 4, 5],
  );
  assert.equal(list.hasMore, false);
  assert.deepEqual(s.calls, [1, 2], 'page 2 repeated page 1: the walk ended there');
  // A server that always says "more" and always repeats itself.
  const stubborn = new PagedList<Row>(
    async () => ({ items: [{ id: 1 }, { id: 2 }], hasMore: true }),
    (r) => r.id,
    2,
  );
  await walk(stubborn);
  assert.equal(stubborn.count, 2);
  assert.equal(stubborn.hasMore, false);
});
