// Search of file names across every group of an account, against the real emulator (demo seed, acme's four groups).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestLogLine } from '../../../../../src/api';
import {
  FileSearch,
  type FileSearchBatch,
  type FileSearchOptions,
} from '../../../../../src/features/records/search/fileSearch';
import { GroupListCache } from '../../../../../src/features/records/search/groupCache';
import { accountIdOf, apiRequests, demoClient, emulator, withAcme, type AcmePortal } from '../../helpers';

const FILES_ROUTE = /^GET \/v2\/accounts\/:account\/groups\/:group\/files$/;
const GROUPS_ROUTE = /^GET \/v2\/accounts\/:account\/groups$/;

type Portal = AcmePortal & { cache: GroupListCache };

function withPortal(run: (p: Portal) => Promise<void>, options: Parameters<typeof withAcme>[1] = {}): Promise<void> {
  return withAcme((p) => run({ ...p, cache: new GroupListCache() }), options);
}

async function all(search: AsyncIterable<FileSearchBatch>): Promise<FileSearchBatch[]> {
  const out: FileSearchBatch[] = [];
  for await (const b of search) out.push(b);
  return out;
}

const names = (batches: FileSearchBatch[]): string[] =>
  batches.flatMap((b) => b.hits.map((h) => `${b.group.name}:${h.name}`)).sort();
const searchOf = (p: Portal, options: Partial<FileSearchOptions> = {}) =>
  new FileSearch(p.client, p.acme, { groups: p.cache, ...options });

void describe('file search across groups', () => {
  void test('finds matching names in every group, nested ones too, one batch and one request per group', async () => {
    await withPortal(async (p) => {
      p.emu.resetStats();
      const batches = await all(searchOf(p).search('.MD'));
      assert.equal(batches.length, 4);
      assert.deepEqual(
        batches.map((b) => b.groupsDone),
        [1, 2, 3, 4],
      );
      assert.ok(batches.every((b) => b.groupsTotal === 4 && b.complete && !b.local && !b.error));
      assert.deepEqual(
        names(batches),
        [
          'engineering:architecture.md',
          'engineering:README.md',
          'handbook:leave.md',
          'handbook:security.md',
          'handbook:welcome.md',
          'marketing:q1-plan.md',
        ].sort(),
      );
      assert.equal(apiRequests(p.emu, FILES_ROUTE), 4);
      assert.equal(apiRequests(p.emu, GROUPS_ROUTE), 1);
    });
  });

  void test("a hit is the record as the portal listed it, in its group's batch", async () => {
    await withPortal(async (p) => {
      const batches = await all(searchOf(p).search('format'));
      const batch = batches.find((b) => b.hits.some((h) => h.name === 'format.ts'));
      const file = batch?.hits.find((h) => h.name === 'format.ts');
      assert.ok(batch && file);
      assert.equal(batch.group.label, 'Engineering');
      assert.equal(file.isFolder, false);
      assert.ok(typeof file.size === 'number' && file.size > 0);
      assert.ok(file.parentId !== null, 'a nested file names its folder');
      const record = await p.client.v2.files.get(p.acme, batch.group.id, file.id);
      assert.equal(record.name, 'format.ts');
      const folders = (await all(searchOf(p).search('utils'))).flatMap((b) => b.hits);
      assert.deepEqual(
        folders.map((h) => [h.name, h.isFolder]),
        [['utils', true]],
      );
    });
  });

  void test('the first group named is asked first and leads, even when it answers last', async () => {
    await withPortal(async (p) => {
      const groups = await p.client.v2.groups.list(p.acme);
      const handbook = groups.find((g) => g.name === 'handbook')?.id;
      assert.ok(handbook !== undefined);
      p.emu.setFaults([
        { kind: 'latency', delayMs: 300, method: 'GET', path: `/v2/accounts/${p.acme}/groups/${handbook}/files` },
      ]);
      const batches = await all(searchOf(p).search('.md', undefined, handbook));
      assert.equal(batches.length, 4);
      assert.equal(batches[0]?.group.name, 'handbook');
      assert.deepEqual(
        batches.map((b) => b.groupsDone),
        [1, 2, 3, 4],
      );
      const unordered = await all(searchOf(p).search('.md'));
      assert.notEqual(unordered[0]?.group.name, 'handbook', 'without it, the slow group comes last');
    });
  });

  void test('the group list is fetched once per account and shared, also by searches started together', async () => {
    await withPortal(async (p) => {
      p.emu.resetStats();
      await Promise.all([all(searchOf(p).search('md')), all(searchOf(p).search('csv'))]);
      await all(searchOf(p).search('png'));
      assert.equal(apiRequests(p.emu, GROUPS_ROUTE), 1);
      assert.equal(p.cache.fetches, 1);
      assert.equal(p.cache.has(p.client, p.acme), true);
      p.cache.invalidate(p.client, p.acme);
      await all(searchOf(p).search('png'));
      assert.equal(apiRequests(p.emu, GROUPS_ROUTE), 2);
    });
  });

  void test('a text that extends the previous one is refined locally with no request, with the same results', async () => {
    await withPortal(async (p) => {
      const search = searchOf(p);
      await all(search.search('e'));
      p.emu.resetStats();
      const refined = await all(search.search('e.md'));
      assert.equal(apiRequests(p.emu), 0);
      assert.ok(refined.every((b) => b.local && b.complete));
      const fresh = await all(searchOf(p).search('e.md'));
      assert.deepEqual(names(refined), names(fresh));
      assert.ok(names(fresh).length > 0);

      p.emu.resetStats();
      await all(search.search('csv'));
      assert.equal(apiRequests(p.emu, FILES_ROUTE), 4, 'a text that does not extend the previous one asks again');
    });
  });

  void test('a group whose answer was cut at the page limit is asked again; the complete ones are not', async () => {
    await withPortal(async (p) => {
      const search = searchOf(p, { pageSize: 3, maxPagesPerGroup: 1 });
      const first = await all(search.search('.'));
      const cut = first
        .filter((b) => !b.complete)
        .map((b) => b.group.name)
        .sort();
      assert.ok(cut.length > 0 && cut.length < 4, `some groups cut: ${cut.join(', ')}`);
      p.emu.resetStats();
      const second = await all(search.search('.csv'));
      assert.equal(apiRequests(p.emu, FILES_ROUTE), cut.length);
      assert.deepEqual(
        second
          .filter((b) => !b.local)
          .map((b) => b.group.name)
          .sort(),
        cut,
      );
      assert.deepEqual(names(second), names(await all(searchOf(p).search('.csv'))));
    });
  });

  void test('a portal that ignores the name search and recursion: answers are filtered locally (root records only)', async () => {
    // The emulator's literal profile ignores every file-list parameter (the spec names none of them).
    await withPortal(
      async (p) => {
        const search = (text: string) => all(new FileSearch(p.client, p.acme, { groups: p.cache }).search(text));
        assert.deepEqual(names(await search('notes')), ['marketing:notes.txt']);
        assert.deepEqual(names(await search('q1')), [], 'nested records are not in a root listing');
      },
      { profile: 'literal' },
    );
  });

  void test('a group that fails is reported in its batch; the other groups are searched', async () => {
    await withPortal(async (p) => {
      const marketing = (await p.client.v2.groups.list(p.acme)).find((g) => g.name === 'marketing')?.id;
      p.emu.setFaults([
        { kind: 'status', status: 500, method: 'GET', path: `/v2/accounts/${p.acme}/groups/${marketing}/files` },
      ]);
      const batches = await all(searchOf(p).search('.'));
      const failed = batches.filter((b) => b.error);
      assert.deepEqual(
        failed.map((b) => [b.group.name, b.error?.kind, b.complete]),
        [['marketing', 'server', false]],
      );
      assert.equal(batches.length, 4);
      assert.ok(names(batches).includes('engineering:README.md'));
    });
  });

  void test('abort ends the iteration at once, with requests still in flight', { timeout: 60_000 }, async () => {
    // Each group holds its answer for two minutes: if the iteration waited for an answer, the test would time out.
    await withPortal(async (p) => {
      await p.cache.get(p.client, p.acme, new AbortController().signal);
      p.emu.setFaults([{ kind: 'latency', delayMs: 120_000, method: 'GET', path: `/v2/accounts/${p.acme}/groups/` }]);
      p.emu.resetStats();
      const controller = new AbortController();
      const search = all(searchOf(p).search('md', controller.signal));
      // Cancelled once a group's files have been asked for (bounded at 60 s), not after a time: they are in flight.
      const files = /^GET \/v2\/accounts\/:account\/groups\/:group\/files$/;
      for (let i = 0; i < 3000 && apiRequests(p.emu, files) === 0; i++) await new Promise((r) => setTimeout(r, 20));
      assert.ok(apiRequests(p.emu, files) > 0, 'the search asked for files');
      controller.abort();
      assert.deepEqual(await search, []);
    });
  });

  void test('stopping the loop after the first batch cancels the requests in flight', async () => {
    const emu = await emulator();
    const lines: RequestLogLine[] = [];
    const client = await demoClient(emu, { log: (l) => lines.push(l) });
    try {
      const acme = await accountIdOf(client, 'acme');
      const marketing = (await client.v2.groups.list(acme)).find((g) => g.name === 'marketing')?.id;
      emu.setFaults([
        { kind: 'latency', delayMs: 120_000, method: 'GET', path: `/v2/accounts/${acme}/groups/${marketing}/files` },
      ]);
      const seen: string[] = [];
      for await (const b of new FileSearch(client, acme, { groups: new GroupListCache(), concurrency: 4 }).search(
        'md',
      )) {
        if (b.group.id === marketing) assert.fail('marketing holds its answer for two minutes');
        seen.push(b.group.name);
        break;
      }
      assert.equal(seen.length, 1);
      // Bounded (60 s) only so a missing cancel fails instead of hanging; the line is waited for, not a time.
      for (let i = 0; i < 3000 && !lines.some((l) => l.errorKind === 'cancelled'); i++)
        await new Promise((r) => setTimeout(r, 20));
      assert.ok(
        lines.some(
          (l) => l.errorKind === 'cancelled' && l.path.startsWith(`/v2/accounts/${acme}/groups/${marketing}/files`),
        ),
      );
    } finally {
      client.close();
      await emu.stop();
    }
  });

  void test('blank text searches nothing', async () => {
    await withPortal(async (p) => {
      p.emu.resetStats();
      assert.deepEqual(await all(searchOf(p).search('   ')), []);
      assert.equal(apiRequests(p.emu), 0);
    });
  });
});
