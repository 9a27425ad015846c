// Iterators fetch the next page only when asked.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { collect, items, pages, type Page } from '../../../src/api';
import { enrolledSuite } from './helpers';

void describe('paging', () => {
  const s = enrolledSuite();

  const memberRequests = () => s.t.logs.filter((l) => l.path.startsWith(`/v3/accounts/${s.acme}/members?`)).length;

  void test('taking 3 items of a many-page list makes exactly one request', async () => {
    const first = await s.t.client.v3.members.page(s.acme, { size: 3 });
    assert.ok((first.totalPages ?? 0) >= 10, 'a list of many pages');
    s.t.logs.length = 0;
    const taken: string[] = [];
    for await (const m of s.t.client.v3.members.iterate(s.acme, { size: 3 })) {
      taken.push(m.user.username);
      if (taken.length === 3) break;
    }
    assert.equal(taken.length, 3);
    assert.equal(memberRequests(), 1);
  });

  void test('the fourth item costs the second request; nothing is fetched before it is needed', async () => {
    s.t.logs.length = 0;
    const it = s.t.client.v3.members.iterate(s.acme, { size: 3 })[Symbol.asyncIterator]();
    assert.equal(memberRequests(), 0, 'creating the iterator sends nothing');
    for (let i = 0; i < 3; i++) await it.next();
    assert.equal(memberRequests(), 1);
    await it.next();
    assert.equal(memberRequests(), 2);
    await it.return?.();
  });

  void test('v2 envelopes walk to the end and stop on nextPage false', async () => {
    s.t.logs.length = 0;
    const first = await s.t.client.v2.members.page(s.acme, { size: 10 });
    const all = await collect(s.t.client.v2.members.iterate(s.acme, { size: 10 }));
    assert.equal(all.length, first.totalResults);
    const requests = s.t.logs.filter((l) => l.path.startsWith(`/v2/accounts/${s.acme}/members?`)).length;
    assert.equal(requests, 1 + (first.totalPages ?? 0));
  });

  void test('plain-array lists stop at a short page', async () => {
    const groups = await s.t.client.v2.groups.list(s.acme);
    s.t.logs.length = 0;
    const walked = await collect(s.t.client.v2.groups.iterate(s.acme, { size: 2 }));
    assert.equal(walked.length, groups.length);
    const requests = s.t.logs.filter((l) => l.path.startsWith(`/v2/accounts/${s.acme}/groups?`)).length;
    assert.equal(requests, Math.floor(groups.length / 2) + 1);
  });

  void test('the page counts a tree view shows ("20 of N")', async () => {
    const p = await s.t.client.v3.members.page(s.acme, { page: 2, size: 20 });
    assert.equal(p.page, 2);
    assert.equal(p.pageSize, 20);
    assert.equal(typeof p.totalResults, 'number');
    const clamped = await s.t.client.v3.members.page(s.acme, { size: 1000 });
    assert.ok(clamped.pageSize <= 100, 'sizes are clamped to 100');
  });

  void test('generic pages() and items() are lazy and bounded', async () => {
    let calls = 0;
    const fetch = async (page: number, size: number): Promise<Page<number>> => {
      calls++;
      return {
        items: Array.from({ length: size }, (_, i) => (page - 1) * size + i),
        page,
        pageSize: size,
        hasNext: true,
      };
    };
    const firstFive = await collect(items(fetch, { size: 5 }), 5);
    assert.deepEqual(firstFive, [0, 1, 2, 3, 4]);
    assert.equal(calls, 1);
    calls = 0;
    let n = 0;
    for await (const _p of pages(fetch, { size: 1, maxPages: 7 })) n++;
    assert.equal(n, 7, 'a server that always says "next" is cut off at maxPages');
  });

  void test('an aborted walk stops with cancelled', async () => {
    const ac = new AbortController();
    const seen: string[] = [];
    await assert.rejects(
      (async () => {
        for await (const m of s.t.client.v3.members.iterate(s.acme, { size: 3 }, { signal: ac.signal })) {
          seen.push(m.user.username);
          if (seen.length === 3) ac.abort();
        }
      })(),
      (e: unknown) => e instanceof Error && (e as { kind?: string }).kind === 'cancelled',
    );
    assert.equal(seen.length, 3);
  });
});
