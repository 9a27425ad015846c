import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AccessMatrix } from '../../../../../src/features/members/access/accessMatrix';
import { matrixCsvLines } from '../../../../../src/features/members/access/matrixCsv';

const HEADERS = { username: 'Username', name: 'Name', email: 'E-mail', tags: 'Tags', level: 'Level' };

function matrix(): AccessMatrix {
  const m = new AccessMatrix();
  const add = (username: string, name: string, groups: Record<string, number>, tags: string[] = []) => {
    m.upsert({ username, name, email: `${username}@x.example`, tags, permission: 1, lastActive: null, flags: 0 });
    m.setGroups(username, groups, 1);
  };
  add('ann', 'Ann', { finance: 16, sales: 1 }, ['lead']);
  add('bob', '=HYPERLINK("http://evil")', { finance: 4 }, ['+cmd']);
  add('cy', 'Cy, "the" third', { sales: 4 });
  return m;
}

void describe('access matrix CSV', () => {
  void it('the matrix: a column per group in name order, a permission word per cell', () => {
    const lines = [...matrixCsvLines(matrix(), {}, HEADERS)];
    assert.equal(lines[0], '\uFEFFUsername,Name,E-mail,Tags,finance,sales\r\n');
    assert.ok(lines.includes('ann,Ann,ann@x.example,lead,Administrator,Basic\r\n'), lines.join(''));
    assert.equal(lines.length, 4);
  });

  void it("a group's list: its members only, with their level; formulas and quotes neutralised as the member export does", () => {
    const m = matrix();
    const lines = [...matrixCsvLines(m, { group: m.columnOf('finance'), sort: 'level', descending: true }, HEADERS)];
    assert.deepEqual(lines.slice(1), [
      'ann,Ann,ann@x.example,lead,Administrator\r\n',
      `bob,"'=HYPERLINK(""http://evil"")",bob@x.example,'+cmd,Standard\r\n`,
    ]);
    const sales = [...matrixCsvLines(m, { group: m.columnOf('sales') }, HEADERS)];
    assert.ok(sales.some((l) => l.startsWith('cy,"Cy, ""the"" third"')));
  });
});
