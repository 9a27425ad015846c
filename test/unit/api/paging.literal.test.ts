// Paging against a portal that keeps to the letter of the spec (the emulator's literal profile): plain arrays
// ignore paging, and the walks still show each row once and stop after the last.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { collect, items } from '../../../src/api';
import { PagedList } from '../../../src/views/paging';
import { emulator, passwordClient, type Emulator, type TestClient } from './helpers';

void describe('literal portal: lists', () => {
  let emu: Emulator;
  let t: TestClient;
  let bigcorp: number;
  before(async () => {
    emu = await emulator({
      seed: 'large',
      profile: 'literal',
      large: { members: 50, files: 20, groups: 500, folderDepth: 1 },
    });
    t = await passwordClient(emu);
    bigcorp = (await t.client.v3.accounts.list())[0]?.id ?? 1;
  });
  after(async () => {
    t.client.close();
    await emu.stop();
  });

  void test('walking all 500 groups costs one request and shows each group once', async () => {
    emu.resetStats();
    const groups = await collect(t.client.v2.groups.iterate(bigcorp, { size: 100 }));
    assert.equal(groups.length, 500);
    assert.equal(new Set(groups.map((g) => g.id)).size, 500);
    assert.equal(emu.stats().byRoute['GET /v2/accounts/:account/groups'], 1);
  });

  void test('one page of a plain array that ignores paging is the whole list: no next page', async () => {
    const page = await t.client.v2.groups.page(bigcorp, { page: 1, size: 50 });
    assert.equal(page.items.length, 500);
    assert.equal(page.hasNext, false);
  });

  void test(
    'a list exactly one page long, sent again for page 2, ends the walk without duplicates',
    { timeout: 20_000 },
    async () => {
      const tags = await t.client.v3.memberTags.list(bigcorp);
      assert.ok(tags.length > 1);
      const first = await t.client.v3.memberTags.page(bigcorp, { page: 1, size: tags.length });
      assert.equal(first.hasNext, true, 'a full page may have a next one');
      emu.resetStats();
      const fetchPage = (page: number, size: number, signal?: AbortSignal) =>
        t.client.v3.memberTags.page(bigcorp, { page, size }, signal ? { signal } : undefined);
      const walked = await collect(items(fetchPage, { size: tags.length, key: (tag) => tag }));
      assert.deepEqual(walked, tags);
      assert.equal(
        emu.stats().byRoute['GET /v3/accounts/:account/member-tags'],
        2,
        'page 2 repeated page 1: the walk ended',
      );
      const list = new PagedList(
        async ({ page, size, signal }) => {
          const p = await fetchPage(page, size, signal);
          return { items: p.items, hasMore: p.hasNext };
        },
        (tag) => tag,
        tags.length,
      );
      await list.ensureFirstPage();
      for (let i = 0; i < 10 && list.hasMore; i++) await list.loadMore();
      assert.deepEqual(list.items, tags);
      assert.equal(list.hasMore, false);
    },
  );

  void test('the tree\'s paged list of groups: every group once, no "Load more" after the last', async () => {
    emu.resetStats();
    const list = new PagedList(
      async ({ page, size, signal }) => {
        const p = await t.client.v2.groups.page(bigcorp, { page, size }, { signal });
        return { items: p.items, hasMore: p.hasNext };
      },
      (g) => g.id,
      50,
    );
    await list.ensureFirstPage();
    assert.equal(list.count, 500);
    assert.equal(list.hasMore, false);
    assert.equal(emu.stats().byRoute['GET /v2/accounts/:account/groups'], 1);
  });
});
