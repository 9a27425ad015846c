// A group's order and filters of its file records: the parameters sent, the words on the group row, what a page shows
// the portal ignored (against the emulator's default and literal profiles), the typed date, and what is kept.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ExplorerState } from '../../../../../src/features/explorer/tree/explorerState';
import {
  DEFAULT_FILE_VIEW,
  describeFileView,
  filesQueryOf,
  parseSinceDate,
  parseStoredView,
  unappliedIn,
  type FileListView,
  type Unapplied,
} from '../../../../../src/features/explorer/files/fileListView';
import type { FileRecord } from '../../../../../src/api';
import { filesFetcher, type listedFile } from '../../../../../src/features/explorer/tree/loaders';
import type { TreeKey } from '../../../../../src/shared/keys';
import { accountIdOf, demoClient, emulator, groupIdOf } from '../../helpers';

const view = (v: Partial<FileListView>): FileListView => ({ ...DEFAULT_FILE_VIEW, ...v });
type Listed = Pick<FileRecord, 'name' | 'isFolder' | 'size' | 'lastModified'>;
const file = (name: string, size: number | null, lastModified: number | null = 0): Listed => ({
  name,
  isFolder: false,
  size,
  lastModified,
});
const folder = (name: string): Listed => ({ name, isFolder: true, size: 0, lastModified: 0 });

void describe('file list view', () => {
  void test('sends the order always, and a filter only when it is on; "since" a day includes its first millisecond', () => {
    assert.deepEqual(filesQueryOf(DEFAULT_FILE_VIEW), { orderBy: 'name', ascending: true });
    const since = new Date(2025, 0, 15).getTime();
    assert.deepEqual(
      filesQueryOf(view({ orderBy: 'size', ascending: false, foldersOnly: true, modifiedSince: since })),
      { orderBy: 'size', ascending: false, foldersOnly: true, modifiedAfter: since - 1 },
    );
  });

  void test('the group row names a non-default order and each filter, and what the portal did not apply', () => {
    assert.deepEqual(describeFileView(DEFAULT_FILE_VIEW, new Set()), []);
    const v = view({
      orderBy: 'lastModified',
      ascending: false,
      foldersOnly: true,
      modifiedSince: new Date(2025, 0, 15).getTime(),
    });
    assert.deepEqual(describeFileView(v, new Set()), ['newest first', 'folders only', 'modified since 2025-01-15']);
    assert.deepEqual(describeFileView(v, new Set<Unapplied>(['order', 'foldersOnly'])), [
      'newest first (not applied by the portal)',
      'folders only (not applied by the portal)',
      'modified since 2025-01-15',
    ]);
  });

  void test('a page in the order asked for shows nothing ignored; folders first do not count against it', () => {
    const bySizeDown = view({ orderBy: 'size', ascending: false });
    assert.deepEqual(
      unappliedIn(bySizeDown, [
        folder('z'),
        folder('a'),
        file('b', 30),
        file('c', 20),
        file('a', 20),
        file('d', null),
        file('e', 1),
      ]),
      [],
    );
    assert.deepEqual(
      unappliedIn(bySizeDown, [file('a', 1), file('b', 30), file('c', 20)]),
      ['order'],
      'sizes are compared exactly',
    );
    const byNameDown = view({ ascending: false });
    assert.deepEqual(
      unappliedIn(byNameDown, [file('b', 1), file('B2', 1), file('a10', 1), file('a9', 1)]),
      [],
      'numeric, case-blind',
    );
    assert.deepEqual(unappliedIn(byNameDown, [file('a', 1), file('b', 1), file('c', 1)]), ['order']);
    assert.deepEqual(
      unappliedIn(byNameDown, [file('c', 1), file('a', 1), file('b', 1), file('0', 1)]),
      [],
      'names go by majority: collations differ',
    );
  });

  void test('a file among "folders only", or an older record among "modified since", shows the filter was ignored', () => {
    assert.deepEqual(unappliedIn(view({ foldersOnly: true }), [folder('a'), folder('b')]), []);
    assert.deepEqual(unappliedIn(view({ foldersOnly: true }), [folder('a'), file('b', 1)]), ['foldersOnly']);
    assert.deepEqual(unappliedIn(view({ modifiedSince: 1000 }), [file('a', 1, 1000), file('b', 1, null)]), []);
    assert.deepEqual(unappliedIn(view({ modifiedSince: 1000 }), [file('a', 1, 999)]), ['modifiedSince']);
  });

  void test('reads a typed date as local time, and refuses what is not a date', () => {
    assert.equal(parseSinceDate('2025-01-15'), new Date(2025, 0, 15).getTime());
    assert.equal(parseSinceDate(' 2025-1-5 14:30 '), new Date(2025, 0, 5, 14, 30).getTime());
    for (const bad of ['', 'yesterday', '2025-02-30', '2025-13-01', '2025-01-15 24:00', '15.01.2025'])
      assert.equal(parseSinceDate(bad), undefined, bad);
  });

  void test("keeps each group's view by its key only, forgets the defaults, and stays bounded", async () => {
    const store = new Map<string, unknown>();
    const memento = {
      get: <T>(key: string) => store.get(key) as T | undefined,
      update: async (key: string, value: unknown) =>
        void (value === undefined ? store.delete(key) : store.set(key, JSON.parse(JSON.stringify(value)))),
      keys: () => [...store.keys()],
    };
    const state = new ExplorerState(memento);
    const key = (n: number) => `explorer/p/a:1/g:${n}` as TreeKey;
    const bySize = view({ orderBy: 'size' });
    await state.setFileView(key(1), bySize);
    assert.deepEqual(state.fileView(key(1)), bySize);
    assert.deepEqual(Object.keys(store.get('portal.explorer.fileViews') as object), [key(1)]);
    await state.setFileView(key(1), DEFAULT_FILE_VIEW);
    assert.deepEqual(store.get('portal.explorer.fileViews'), {}, 'the default view is not stored');
    for (let n = 0; n < 510; n++) await state.setFileView(key(n), bySize);
    const kept = Object.keys(store.get('portal.explorer.fileViews') as object);
    assert.equal(kept.length, 500);
    assert.equal(kept[0], key(10), 'the views set longest ago are forgotten first');
    assert.equal(parseStoredView({ orderBy: 'colour', ascending: true, foldersOnly: false }), undefined);
    assert.equal(state.hideDisabledAccounts, false);
    await state.setHideDisabledAccounts(true);
    assert.equal(state.hideDisabledAccounts, true);
  });

  for (const profile of ['default', 'literal'] as const) {
    void test(`the Explorer's page loader against the ${profile} profile: applied there, reported as ignored here`, async () => {
      const emu = await emulator({ profile });
      const client = await demoClient(emu);
      try {
        const acme = await accountIdOf(client, 'acme');
        const engineering = await groupIdOf(client, acme, 'engineering');
        const v = view({ orderBy: 'name', ascending: false, foldersOnly: true });
        const pages: ReturnType<typeof listedFile>[][] = [];
        const page = await filesFetcher(client, acme, engineering, undefined, v, (rows) => pages.push([...rows]))({
          page: 1,
          size: 50,
        });
        assert.equal(pages.length, 1);
        const found = unappliedIn(v, page.items);
        if (profile === 'default') {
          assert.deepEqual(
            page.items.map((r) => r.name),
            ['src', 'docs'],
          );
          assert.deepEqual(found, []);
        } else {
          assert.ok(
            page.items.some((r) => !r.isFolder),
            'the literal portal lists files too',
          );
          assert.deepEqual(found, ['order', 'foldersOnly']);
        }
      } finally {
        client.close();
        await emu.stop();
      }
    });
  }
});
