// The Members view's activity filter scoped to a group, against the emulator: the walk finds exactly the members who
// meet the conditions and are in the group, with their level there; only the rows that met the conditions get a v2
// member read, each once; the answers are kept in the access store, so the next walk reads none; and the CSV export
// walks the same way, so the file holds the view's rows.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { PortalClient } from '../../../../../src/api';
import { AccessStoreFile } from '../../../../../src/features/members/access/store/accessStoreFile';
import { readMemberGroups } from '../../../../../src/features/members/access/store/memberGroups';
import { membersCsvLines } from '../../../../../src/features/members/csv/membersCsv';
import { membersFetcher } from '../../../../../src/features/members/view/loaders';
import type { GroupsReader, ScopedRow } from '../../../../../src/shared/activityScan';
import { meetsActivity, memberRow, type MemberQuery, type MemberRow } from '../../../../../src/shared/members';
import { accountIdOf, apiRequests, demoClient, emulator, type Emulator } from '../../helpers';
import { tempDir } from '../../../../support/tempDir';

const MEMBER_READ = /^GET \/v2\/accounts\/:account\/members\/:username$/;
const HOUR = 3_600_000;

void describe('members activity filter scoped to a group', () => {
  let emu: Emulator;
  let client: PortalClient;
  let acme: number;
  let all: MemberRow[];
  /** Each member's groups, read before the tests (lower-case group name → permission). */
  const groupsOf = new Map<string, Record<string, number>>();
  let query: MemberQuery;
  let dir: string;
  let journal: AccessStoreFile;
  let asked: string[];

  before(async () => {
    emu = await emulator();
    client = await demoClient(emu);
    acme = await accountIdOf(client, 'acme');
    all = [];
    for await (const m of client.v3.members.iterate(acme, { size: 100 })) all.push(memberRow(m));
    for (const r of all) {
      const g = (await client.v2.members.get(acme, r.username)).groups ?? {};
      groupsOf.set(r.username, Object.fromEntries(Object.entries(g).map(([k, v]) => [k.toLowerCase(), v])));
    }
    const engineering = (await client.v2.groups.list(acme)).find((g) => g.name === 'engineering');
    assert.ok(engineering);
    query = {
      activity: {
        inactiveDays: 90,
        group: { id: engineering.id, name: engineering.name, label: engineering.friendlyName },
      },
    };
  });
  after(async () => {
    client.close();
    await emu.stop();
  });
  beforeEach(() => {
    dir = tempDir('scope-');
    journal = new AccessStoreFile(path.join(dir, 'acme.jsonl'));
    asked = [];
    emu.resetStats();
  });

  const inactive = () => all.filter((r) => meetsActivity(r, { inactiveDays: 90 }, Date.now()));
  const truth = () =>
    inactive()
      .filter((r) => (groupsOf.get(r.username)?.engineering ?? 0) > 0)
      .map((r) => `${r.username}:${groupsOf.get(r.username)?.engineering}`)
      .sort();

  /** The access store's reader, recording whom it was asked about. */
  function reader(matrix = journal.load()): GroupsReader {
    return (rows, signal) => {
      asked.push(...rows.map((r) => r.username));
      return readMemberGroups(client, acme, { matrix, journal }, rows, { signal, maxAgeMs: HOUR, concurrency: 4 });
    };
  }

  async function walk(read: GroupsReader, size: number): Promise<string[]> {
    const fetch = membersFetcher(client, acme, query, Date.now, { groups: read });
    const out: string[] = [];
    for (let page = 1; page < 1000; page++) {
      const p = await fetch({ page, size });
      out.push(...p.items.map((r) => `${r.username}:${(r as ScopedRow).groupPermission}`));
      if (!p.hasMore) break;
    }
    return out.sort();
  }

  void it('the seed has inactive members both in Engineering and not', () => {
    assert.ok(truth().length > 0, 'some inactive members are in Engineering');
    assert.ok(truth().length < inactive().length, 'some inactive members are not');
    assert.ok(inactive().length < all.length, 'some members are active');
  });

  void it('keeps exactly the inactive members in the group, with their level, reading only the inactive ones', async () => {
    assert.deepEqual(await walk(reader(), 7), truth());
    assert.deepEqual(
      asked.sort(),
      inactive()
        .map((r) => r.username)
        .sort(),
      'only rows meeting the conditions',
    );
    assert.equal(
      apiRequests(emu, MEMBER_READ),
      inactive().length,
      'one v2 read per inactive member, none for the rest',
    );
  });

  void it('a second walk answers from the access store: no member read at all', async () => {
    const matrix = journal.load();
    await walk(reader(matrix), 7);
    emu.resetStats();
    // A reload: a new store from the journal on disk.
    assert.deepEqual(await walk(reader(), 50), truth());
    assert.equal(apiRequests(emu, MEMBER_READ), 0);
  });

  void it('the CSV export writes the same members, through the same reader', async () => {
    const lines: string[] = [];
    for await (const line of membersCsvLines(client, acme, query, { memberGroups: reader() })) lines.push(line);
    const exported = lines.slice(1).map((l) => l.split(',')[0] ?? '');
    assert.deepEqual(
      exported.sort(),
      truth()
        .map((t) => t.split(':')[0])
        .sort(),
    );
  });

  void it('a scope without a reader is refused rather than ignored', async () => {
    const fetch = membersFetcher(client, acme, query, Date.now, {});
    await assert.rejects(fetch({ page: 1, size: 50 }), /reader/);
  });
});
