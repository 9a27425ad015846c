// Members CSV: RFC 4180 quoting and formula neutralising, and the export walk against the real emulator.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'csv-parse/sync';
import { collect, type Member, type PortalClient } from '../../../../../src/api';
import {
  memberCells,
  membersCsvLines,
  MEMBER_COLUMNS,
  writeMembersCsv,
  type MemberExportQuery,
} from '../../../../../src/features/members/csv/membersCsv';
import { csvCell, csvLine, UTF8_BOM } from '../../../../../src/features/members/csv/csv';
import { membersFetcher } from '../../../../../src/features/members/view/loaders';
import { meetsActivity, memberRow } from '../../../../../src/shared/members';
import { FORMULA_NAMES, HOSTILE_PAYLOADS } from '../../../../emulator/seeds/hostile-payloads';
import { accountIdOf, apiRequests, withDemoClient, type Emulator } from '../../helpers';
import { tempDir } from '../../../../support/tempDir';

/** A strict RFC 4180 reader for checking the output (quoted fields, doubled quotes, CRLF records). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let i = 0;
  while (i < text.length) {
    const row: string[] = [];
    for (;;) {
      let cell = '';
      if (text[i] === '"') {
        i++;
        for (;;) {
          const q = text.indexOf('"', i);
          assert.ok(q >= 0, 'a quoted field is closed');
          cell += text.slice(i, q);
          i = q + 1;
          if (text[i] === '"') {
            cell += '"';
            i++;
          } else break;
        }
      } else {
        const end = text.slice(i).search(/[,\r]/);
        assert.ok(end >= 0, 'every record ends with CRLF');
        cell = text.slice(i, i + end);
        assert.ok(!/["\n]/.test(cell), `an unquoted field has no quote or LF: ${JSON.stringify(cell)}`);
        i += end;
      }
      row.push(cell);
      if (text[i] === ',') {
        i++;
        continue;
      }
      assert.equal(text.slice(i, i + 2), '\r\n');
      i += 2;
      break;
    }
    rows.push(row);
  }
  return rows;
}

async function lines(gen: AsyncIterable<string>): Promise<string> {
  let out = '';
  for await (const l of gen) out += l;
  return out;
}

/** withDemoClient, in the organisation named `account`. */
function withPortal(
  run: (p: { emu: Emulator; client: PortalClient; account: number }) => Promise<void>,
  options: Parameters<typeof withDemoClient>[1] = {},
  account = 'acme',
): Promise<void> {
  return withDemoClient(
    async (emu, client) => run({ emu, client, account: await accountIdOf(client, account) }),
    options,
  );
}

const usernames = (rows: string[][]) => rows.slice(1).map((r) => r[0]);

let scratch: string;
before(() => {
  scratch = tempDir('portal-csv-');
});
after(() => fs.rmSync(scratch, { recursive: true, force: true }));

void describe('members CSV', () => {
  void test('cells: RFC 4180 quoting, and =, +, -, @, tab or CR made inert at the start and after a separator', () => {
    const cases: Array<[string, string]> = [
      ['plain', 'plain'],
      ['', ''],
      ['a,b', '"a,b"'],
      ['say "hi"', '"say ""hi"""'],
      ['two\nlines', '"two\nlines"'],
      ['cr\r\nlf', '"cr\r\nlf"'],
      ['=1+1', "'=1+1"],
      ['+31 20 123', "'+31 20 123"],
      ['-2', "'-2"],
      ['@SUM(A1)', "'@SUM(A1)"],
      ['\tx', "'\tx"],
      ['\rx', `"'\rx"`],
      ['=HYPERLINK("http://x","y")', `"'=HYPERLINK(""http://x"",""y"")"`],
      ['a=b', 'a=b'],
      ['Mallory;=HYPERLINK("http://x","y");x', `"Mallory;'=HYPERLINK(""http://x"",""y"");x"`],
      ['a,=WEBSERVICE("x")', `"a,'=WEBSERVICE(""x"")"`],
      ['b\t+1|@2; -3', "b\t'+1|'@2; '-3"],
      ['c;"=1"', `"c;""'=1"""`],
      ['2025-01-15T09:00:00Z, a+b@x.example', '"2025-01-15T09:00:00Z, a+b@x.example"'],
    ];
    for (const [input, expected] of cases) assert.equal(csvCell(input), expected, JSON.stringify(input));
    assert.equal(csvLine(['a', 'b,c', '=d']), `a,"b,c",'=d\r\n`);
    assert.deepEqual(parseCsv(csvLine(['x"y', 'p\nq', '@z'])), [['x"y', 'p\nq', "'@z"]]);
  });

  void test('every member of the account, one row each in the portal order, with a header; server text stays text', async () => {
    await withPortal(async (p) => {
      const members = await collect(p.client.v3.members.iterate(p.account));
      const text = await lines(membersCsvLines(p.client, p.account, {}));
      const rows = parseCsv(text);
      assert.equal(rows[0]?.[0], 'Username');
      assert.equal(rows[0]?.length, MEMBER_COLUMNS.length);
      assert.deepEqual(
        usernames(rows),
        members.map((m) => m.user.username),
      );
      const yara = rows.find((r) => r[0] === 'yara.haddad');
      assert.equal(yara?.[1], 'Yara Haddad');
      assert.equal(yara?.[6], 'security');
      const lena = rows.find((r) => r[0] === 'lena.locked');
      assert.equal(lena?.[4], 'true');
      const demo = members.find((m) => m.user.username === 'demo') as Member;
      assert.deepEqual(
        rows.find((r) => r[0] === 'demo'),
        memberCells(demo),
      );
    });
  });

  void test('the query is honoured: search, starts-with, tags, tags with a search, and the order', async () => {
    await withPortal(async (p) => {
      const exportOf = async (q: MemberExportQuery) =>
        usernames(parseCsv(await lines(membersCsvLines(p.client, p.account, q))));
      const names = (ms: Member[]) => ms.map((m) => m.user.username);
      assert.deepEqual(
        await exportOf({ search: 'an' }),
        names(await collect(p.client.v3.members.iterate(p.account, { name: 'an' }))),
      );
      assert.deepEqual(
        await exportOf({ search: 'el', startsWith: true }),
        names(await collect(p.client.v3.members.iterate(p.account, { startsWith: 'el' }))),
      );
      const tagged = await collect(p.client.v3.memberTags.iterateMembers(p.account, ['lead', 'ops']));
      assert.deepEqual(await exportOf({ tags: ['lead', 'ops'] }), names(tagged));
      // The portal's tag listing takes no text: the export matches name, e-mail or username here.
      const both = await exportOf({ tags: ['lead', 'ops'], search: 'IA' });
      const expected = tagged.filter((m) =>
        [m.user.name, m.user.email, m.user.username].some((f) => f.toLowerCase().includes('ia')),
      );
      assert.ok(expected.length > 0 && expected.length < tagged.length);
      assert.deepEqual(both, names(expected));
      const starting = await exportOf({ tags: ['lead', 'ops'], search: 'p', startsWith: true });
      assert.deepEqual(
        starting,
        names(tagged.filter((m) => [m.user.name, m.user.email].some((f) => f.toLowerCase().startsWith('p')))),
      );
      assert.ok(starting.length > 0);
      assert.deepEqual(
        await exportOf({ orderBy: 'email', ascending: false }),
        names(await collect(p.client.v3.members.iterate(p.account, { orderBy: 'email', ascending: false }))),
      );
    });
  });

  void test('the activity and state filter: the rows the Members view shows, in its order, walking no further', async () => {
    await withPortal(
      async (p) => {
        const view = async (q: MemberExportQuery): Promise<string[]> => {
          const fetch = membersFetcher(p.client, p.account, q);
          const out: string[] = [];
          for (let page = 1; page < 1000; page++) {
            const r = await fetch({ page, size: 25 });
            out.push(...r.items.map((m) => m.username));
            if (!r.hasMore) break;
          }
          return out;
        };
        const all = await collect(p.client.v3.members.iterate(p.account, { size: 100 }));
        for (const q of [
          { activity: { inactiveDays: 90 } },
          { activity: { never: true } },
          { activity: { disabled: true } },
          { activity: { twoFactorOff: true, inactiveDays: 30 }, search: 'a' },
          { activity: { locked: true }, tags: ['support'] },
        ] satisfies MemberExportQuery[]) {
          const expected = await view(q);
          const exported = usernames(parseCsv(await lines(membersCsvLines(p.client, p.account, q))));
          assert.deepEqual(exported, expected, JSON.stringify(q));
          const truth = all.filter((m) => meetsActivity(memberRow(m), q.activity, Date.now()));
          if (!q.search && !('tags' in q)) assert.equal(exported.length, truth.length, JSON.stringify(q));
          assert.ok(exported.length < all.length, JSON.stringify(q));
        }
        // Least recently active first: the walk ends at the first member active since the cutoff.
        p.emu.resetStats();
        const few = usernames(
          parseCsv(
            await lines(membersCsvLines(p.client, p.account, { activity: { inactiveDays: 300 } }, { readAhead: 0 })),
          ),
        );
        assert.ok(few.length > 0 && few.length < all.length);
        assert.ok(apiRequests(p.emu) < Math.ceil(all.length / 100), `${apiRequests(p.emu)} pages`);
      },
      { seed: 'large', large: { members: 700, files: 1, groups: 9, folderDepth: 1 } },
      'bigcorp',
    );
  });

  void test('a name that would be a formula is written inert', async () => {
    await withPortal(async (p) => {
      await p.client.v3.members.create(p.account, {
        name: '=HYPERLINK("http://evil.example","Click")',
        username: 'formula.fan',
        email: 'formula@acme.example',
      });
      const rows = parseCsv(await lines(membersCsvLines(p.client, p.account, { search: 'formula' })));
      assert.deepEqual(
        rows.slice(1).map((r) => r[1]),
        ['\'=HYPERLINK("http://evil.example","Click")'],
      );
    });
  });

  void test('no cell starts a formula however a spreadsheet splits the file: on `,`, `;` (de, fr, …), tab or `|`', async () => {
    await withPortal(
      async (p) => {
        const file = path.join(scratch, 'hostile.csv');
        await writeMembersCsv(p.client, p.account, {}, file);
        const text = fs.readFileSync(file, 'utf8');
        fs.rmSync(file);
        const formula = /^[=+\-@\t\r]/;
        for (const delimiter of [',', ';', '\t', '|']) {
          // As Excel opens a file in a locale with this list separator: quotes that do not open a field are text.
          const rows = parse(text, {
            bom: true,
            delimiter,
            relax_quotes: true,
            relax_column_count: true,
            record_delimiter: ['\r\n'],
          }) as string[][];
          assert.ok(rows.length > 16, `${rows.length} rows split on ${JSON.stringify(delimiter)}`);
          const live = rows.flat().filter((cell) => formula.test(cell) || formula.test(cell.replace(/^[ "]+/, '')));
          assert.deepEqual(live, [], `cells that start a formula when split on ${JSON.stringify(delimiter)}`);
        }
        const names = (parse(text, { bom: true }) as string[][]).map((r) => r[1] ?? '');
        for (const name of FORMULA_NAMES)
          assert.ok(
            names.some((n) => n.replace(/'(?=[=+\-@\t\r])/g, '').startsWith(`${name} `)),
            `${JSON.stringify(name)} is exported, reading the same but for a quote before each formula`,
          );
        assert.ok(names.some((n) => n.startsWith(`Mallory;'=HYPERLINK("http://x","y");x `)));
        // Markup in a name or a tag is data: written as the portal holds it, nothing escaped or dropped.
        const markup = (parse(text, { bom: true }) as string[][]).find((r) => r[0] === 'payload.htmlimg');
        assert.ok(markup, 'payload.htmlimg is exported');
        assert.ok(markup[1]?.startsWith(`htmlImg ${HOSTILE_PAYLOADS.htmlImg} `), markup[1]);
        assert.ok(markup[6]?.includes(HOSTILE_PAYLOADS.htmlImg), markup[6]);
      },
      { seed: 'hostile' },
      'constructor',
    );
  });

  void test('pages read ahead come out in order, each member once, and as many as the portal counts', async () => {
    await withPortal(
      async (p) => {
        const first = await p.client.v3.members.page(p.account, { page: 1, size: 100 });
        const sequential = usernames(parseCsv(await lines(membersCsvLines(p.client, p.account, {}, { readAhead: 0 }))));
        const ahead = usernames(parseCsv(await lines(membersCsvLines(p.client, p.account, {}, { readAhead: 3 }))));
        assert.equal(ahead.length, first.totalResults);
        assert.equal(new Set(ahead).size, ahead.length);
        assert.deepEqual(ahead, sequential);
      },
      { seed: 'large', large: { members: 450, files: 1, groups: 2, folderDepth: 1 } },
      'bigcorp',
    );
  });

  void test('lines stream: the walk asks for pages only a few ahead of the reader, and stops when the reader stops', async () => {
    await withPortal(
      async (p) => {
        p.emu.resetStats();
        const route = /^GET \/v3\/accounts\/:account\/members$/;
        const it = membersCsvLines(p.client, p.account, {}, { readAhead: 2 });
        // The header and the first page's 100 rows, then the first row of page 2: page 2 and the two after it are asked for.
        for (let i = 0; i < 102; i++) await it.next();
        // The read-ahead is waited for (bounded, for a busy machine); then a moment more must ask for nothing else.
        for (let i = 0; i < 600 && apiRequests(p.emu, route) < 4; i++) await new Promise((r) => setTimeout(r, 100));
        await new Promise((r) => setTimeout(r, 100));
        assert.equal(apiRequests(p.emu, route), 4, 'pages 1 to 4 of 20');
        await it.return(undefined);
        const asked = apiRequests(p.emu, route);
        await new Promise((r) => setTimeout(r, 100));
        assert.equal(apiRequests(p.emu, route), asked);
        assert.ok(asked < 20);
      },
      { seed: 'large', large: { members: 1950, files: 1, groups: 2, folderDepth: 1 } },
      'bigcorp',
    );
  });

  void test('the file: a byte order mark, then the same lines; a cancelled export keeps the earlier file as it was', async () => {
    await withPortal(async (p) => {
      const file = path.join(scratch, 'members.csv');
      const { rows } = await writeMembersCsv(p.client, p.account, {}, file);
      const text = fs.readFileSync(file, 'utf8');
      assert.ok(text.startsWith(UTF8_BOM));
      assert.equal(text.slice(1), await lines(membersCsvLines(p.client, p.account, {})));
      assert.equal(rows, parseCsv(text.slice(1)).length - 1);

      p.emu.setFaults([
        { kind: 'latency', delayMs: 120_000, method: 'GET', path: `/v3/accounts/${p.account}/members` },
      ]);
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 100);
      await assert.rejects(writeMembersCsv(p.client, p.account, { search: 'a' }, file, { signal: controller.signal }), {
        kind: 'cancelled',
      });
      assert.equal(fs.readFileSync(file, 'utf8'), text);
      assert.deepEqual(fs.readdirSync(scratch), ['members.csv'], 'no temporary file is left');
    });
  });
});
