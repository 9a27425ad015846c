// The access matrix read against the emulator: one v2 read per member, kept in the journal so a reopen sends
// nothing, a cancelled read resumes with no member read twice, and stale rows (and only those) are read again.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { PortalClient } from '../../../../../../src/api';
import { AccessStoreFile } from '../../../../../../src/features/members/access/store/accessStoreFile';
import { readMatrix, type MatrixReadOptions } from '../../../../../../src/features/members/access/store/matrixRead';
import { cellOf, ROW } from '../../../../../../src/shared/accessRow';
import { accountIdOf, apiRequests, demoClient, emulator, type Emulator } from '../../../helpers';
import { tempDir } from '../../../../../support/tempDir';

const MEMBER_READ = /^GET \/v2\/accounts\/:account\/members\/:username$/;
const LIST_PAGE = /^GET \/v3\/accounts\/:account\/members$/;
const HOUR = 3_600_000;

void describe('access matrix read', () => {
  let emu: Emulator;
  let client: PortalClient;
  let acme: number;
  let dir: string;
  let file: string;
  let acmeMembers: number;

  before(async () => {
    emu = await emulator();
    client = await demoClient(emu);
    acme = await accountIdOf(client, 'acme');
    acmeMembers = (await client.v3.members.page(acme, { size: 1 })).totalResults ?? 0;
    assert.ok(acmeMembers > 20, 'the demo seed has enough members to stop halfway');
  });
  after(async () => {
    client.close();
    await emu.stop();
  });
  beforeEach(() => {
    dir = tempDir('access-');
    file = path.join(dir, 'acme.jsonl');
    emu.resetStats();
  });

  const options = (o: Partial<MatrixReadOptions> = {}): MatrixReadOptions => ({
    signal: new AbortController().signal,
    maxAgeMs: HOUR,
    concurrency: 4,
    ...o,
  });

  void it("reads each member once, plus the list pages, and each cell is the member's group permission", async () => {
    const journal = new AccessStoreFile(file);
    const matrix = journal.load();
    const result = await readMatrix(client, acme, matrix, journal, options());
    assert.equal(result.outcome, 'done');
    assert.equal(matrix.size, acmeMembers);
    assert.equal(apiRequests(emu, MEMBER_READ), acmeMembers);
    assert.equal(apiRequests(emu, LIST_PAGE), Math.ceil(acmeMembers / 100));
    assert.equal(apiRequests(emu), acmeMembers + Math.ceil(acmeMembers / 100), 'nothing else is asked');
    const row = matrix.row('member');
    assert.ok(row);
    const level = (g: string) => cellOf(row, matrix.columnOf(g) ?? -1);
    // The seed's `member`: engineering 4, marketing 1, social 16 → levels 2, 1, 3; handbook none.
    assert.deepEqual([level('engineering'), level('marketing'), level('social'), level('handbook')], [2, 1, 3, 0]);
    assert.ok(row[ROW.readAt] > 0);
  });

  void it('a reopen within the maximum age reads nothing: the journal on disk holds the list and every row', async () => {
    const first = new AccessStoreFile(file);
    await readMatrix(client, acme, first.load(), first, options());
    emu.resetStats();
    // A new journal object from the same file: what a reload of the extension sees.
    const again = new AccessStoreFile(file);
    const matrix = again.load();
    assert.equal(matrix.size, acmeMembers);
    assert.equal(matrix.readCount(), acmeMembers);
    const result = await readMatrix(client, acme, matrix, again, options());
    assert.equal(result.outcome, 'done');
    assert.equal(emu.stats().requests, 0, 'no request at all');
  });

  void it('a read cancelled halfway resumes from the file with no member read twice', async () => {
    const journal = new AccessStoreFile(file);
    const controller = new AbortController();
    let seen = 0;
    const half = Math.floor(acmeMembers / 2);
    const first = await readMatrix(
      client,
      acme,
      journal.load(),
      journal,
      options({
        signal: controller.signal,
        concurrency: 2,
        onRow: (r) => {
          if (r[ROW.readAt] > 0 && ++seen === half) controller.abort();
        },
      }),
    );
    assert.equal(first.outcome, 'cancelled');
    const readBefore = apiRequests(emu, MEMBER_READ);
    assert.ok(readBefore < acmeMembers, `stopped before the end (${readBefore} reads)`);
    const reloaded = new AccessStoreFile(file);
    const matrix = reloaded.load();
    const kept = matrix.readCount();
    assert.ok(kept >= half, `${kept} rows kept on disk`);
    const second = await readMatrix(client, acme, matrix, reloaded, options());
    assert.equal(second.outcome, 'done');
    assert.equal(matrix.readCount(), acmeMembers);
    // An aborted request may have reached the portal without its answer being kept: those (at most the two in
    // flight) are the only ones read twice, and an answer that arrived was never asked for again.
    assert.equal(second.reads, acmeMembers - kept);
    assert.ok(
      apiRequests(emu, MEMBER_READ) <= acmeMembers + 2,
      `${apiRequests(emu, MEMBER_READ)} member reads in all for ${acmeMembers} members`,
    );
  });

  void it('reads again only the rows older than the maximum age', async () => {
    let now = Date.now();
    const journal = new AccessStoreFile(file);
    const matrix = journal.load();
    await readMatrix(client, acme, matrix, journal, options({ now: () => now }));
    // Age five rows by rewriting their read time, as if they had been read two hours ago.
    const old = [...matrix.all()].slice(0, 5);
    for (const r of old) r[ROW.readAt] = now - 2 * HOUR;
    emu.resetStats();
    now += 60_000;
    const result = await readMatrix(client, acme, matrix, journal, options({ now: () => now }));
    assert.equal(result.reads, 5);
    assert.equal(apiRequests(emu), 5, 'the list is fresh: no page, five reads');
  });

  void it('a list older than the maximum age is walked again, and a member who left is dropped', async () => {
    let now = Date.now();
    const journal = new AccessStoreFile(file);
    const matrix = journal.load();
    await readMatrix(client, acme, matrix, journal, options({ now: () => now }));
    matrix.upsert({
      username: 'gone.member',
      name: 'Gone',
      email: '',
      tags: [],
      permission: 1,
      lastActive: null,
      flags: 0,
    });
    emu.resetStats();
    now += 2 * HOUR;
    const removed: number[] = [];
    await readMatrix(
      client,
      acme,
      matrix,
      journal,
      options({ now: () => now, onRemoved: (ids) => removed.push(...ids) }),
    );
    assert.equal(matrix.row('gone.member'), undefined);
    assert.equal(removed.length, 1);
    assert.equal(apiRequests(emu, MEMBER_READ), acmeMembers, 'every row was stale');
  });

  void it('a declined confirmation reads no member', async () => {
    const journal = new AccessStoreFile(file);
    let asked = 0;
    const result = await readMatrix(
      client,
      acme,
      journal.load(),
      journal,
      options({
        confirmAboveMs: 0,
        confirm: async (e) => {
          asked++;
          assert.equal(e.reads, acmeMembers);
          return false;
        },
      }),
    );
    assert.equal(result.outcome, 'declined');
    assert.equal(asked, 1);
    assert.equal(apiRequests(emu, MEMBER_READ), 0);
  });

  void it('stops after the first members when given a limit, asking no page beyond them', async () => {
    const journal = new AccessStoreFile(file);
    const matrix = journal.load();
    await readMatrix(client, acme, matrix, journal, options({ limit: 10 }));
    assert.equal(matrix.size, 10);
    assert.equal(apiRequests(emu), 11);
  });

  void it('a line cut short by a crash is skipped, and the next line is not joined to it', async () => {
    const journal = new AccessStoreFile(file);
    await readMatrix(client, acme, journal.load(), journal, options({ limit: 3 }));
    fs.appendFileSync(file, '{"k":"read","at":1,"m":["torn');
    const reloaded = new AccessStoreFile(file);
    const matrix = reloaded.load();
    assert.equal(matrix.readCount(), 3);
    reloaded.read(
      { username: 'x.y', name: 'X', email: '', tags: [], permission: 1, lastActive: null, flags: 0 },
      { g: 4 },
      5,
    );
    const again = new AccessStoreFile(file).load();
    assert.equal(again.row('x.y')?.[ROW.readAt], 5);
  });

  void it('compaction keeps what was read and drops the superseded lines', async () => {
    const journal = new AccessStoreFile(file);
    const matrix = journal.load();
    await readMatrix(client, acme, matrix, journal, options());
    const linesBefore = fs.readFileSync(file, 'utf8').trim().split('\n').length;
    await journal.compact(matrix);
    const text = fs.readFileSync(file, 'utf8').trim().split('\n');
    assert.equal(text.length, acmeMembers + 2, 'head, list, one line per member');
    assert.ok(linesBefore >= text.length);
    const reloaded = new AccessStoreFile(file).load();
    assert.equal(reloaded.readCount(), acmeMembers);
    assert.deepEqual(
      reloaded.groupsOf(reloaded.row('member') ?? assert.fail()),
      matrix.groupsOf(matrix.row('member') ?? assert.fail()),
    );
  });
});
