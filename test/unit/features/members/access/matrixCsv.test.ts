import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AccessMatrix } from '../../../../../src/features/members/access/store/accessMatrix';
import { matrixCsvLines } from '../../../../../src/features/members/access/matrixCsv';
import { csvHeaders } from './csvHeaders';

const HEADERS = { headers: csvHeaders('Level') };
const M = 'Last active,State,Organisation permission';

const BOB_ACTIVE = Date.UTC(2026, 7, 1, 12);
const NOW = Date.UTC(2026, 10, 27, 12);

function matrix(): AccessMatrix {
  const m = new AccessMatrix();
  const add = (
    username: string,
    name: string,
    groups: Record<string, number>,
    tags: string[] = [],
    more: { permission: number; lastActive: number | null; flags: number } = {
      permission: 1,
      lastActive: null,
      flags: 8,
    },
  ) => {
    m.upsert({ username, name, email: `${username}@x.example`, tags, ...more });
    m.setGroups(username, groups, 1);
  };
  add('ann', 'Ann', { finance: 16, sales: 1 }, ['lead']);
  add('bob', '=HYPERLINK("http://evil")', { finance: 4 }, ['+cmd'], {
    permission: 16,
    lastActive: BOB_ACTIVE,
    flags: 2,
  });
  add('cy', 'Cy, "the" third', { sales: 4 });
  return m;
}

void describe('access matrix CSV', () => {
  void it('the matrix: a column per group in name order, a permission word per cell', () => {
    const lines = [...matrixCsvLines(matrix(), {}, HEADERS)];
    assert.equal(lines[0], `\uFEFFUsername,Name,E-mail,Tags,${M},finance,sales\r\n`);
    assert.ok(
      lines.includes('ann,Ann,ann@x.example,lead,never,Enabled,Member,Administrator,Basic\r\n'),
      lines.join(''),
    );
    assert.equal(lines.length, 4);
  });

  void it("a group's list: its members only, with their level; formulas and quotes neutralised as the member export does", () => {
    const m = matrix();
    const lines = [...matrixCsvLines(m, { group: m.columnOf('finance'), sort: 'level', descending: true }, HEADERS)];
    assert.deepEqual(lines.slice(1), [
      'ann,Ann,ann@x.example,lead,never,Enabled,Member,Administrator\r\n',
      `bob,"'=HYPERLINK(""http://evil"")",bob@x.example,'+cmd,2026-08-01,"Locked, two-factor off",Super administrator,Standard\r\n`,
    ]);
    const sales = [...matrixCsvLines(m, { group: m.columnOf('sales') }, HEADERS)];
    assert.ok(sales.some((l) => l.startsWith('cy,"Cy, ""the"" third"')));
  });

  void it('the member columns filter as the page does: inactive 90+ days in a group, and the header says so', () => {
    const m = matrix();
    const view = { group: m.columnOf('finance'), inactiveDays: 90 };
    const lines = [
      ...matrixCsvLines(m, view, { ...HEADERS, about: 'Acme; group finance, inactive 90+ days', now: NOW }),
    ];
    assert.equal(
      lines[0],
      `\uFEFF"Acme; group finance, inactive 90+ days"\r\nUsername,Name,E-mail,Tags,${M},Level\r\n`,
    );
    // Ann never signed in (inactive), Bob last on 1 August (118 days before NOW); Cy is not in finance.
    assert.deepEqual(
      lines.slice(1).map((l) => l.split(',')[0]),
      ['bob', 'ann'],
      'in name order, as the page shows them',
    );
    const recent = [
      ...matrixCsvLines(m, { group: m.columnOf('finance'), inactiveDays: 180 }, { ...HEADERS, now: NOW }),
    ];
    assert.deepEqual(
      recent.slice(1).map((l) => l.split(',')[0]),
      ['ann'],
      'Bob was active within 180 days',
    );
    const locked = [...matrixCsvLines(m, { state: 'locked', permission: 16 }, { ...HEADERS, now: NOW })];
    assert.deepEqual(
      locked.slice(1).map((l) => l.split(',')[0]),
      ['bob'],
    );
  });

  void it("groups are named as people know them, in that name's order, once the group list was read", () => {
    const m = matrix();
    m.setNames({ finance: 'Zeta Finance', sales: 'Alpha Sales' }, 1);
    const lines = [...matrixCsvLines(m, {}, HEADERS)];
    assert.equal(lines[0], `\uFEFFUsername,Name,E-mail,Tags,${M},Alpha Sales,Zeta Finance\r\n`);
    assert.ok(
      lines.includes('ann,Ann,ann@x.example,lead,never,Enabled,Member,Basic,Administrator\r\n'),
      lines.join(''),
    );
  });
});
