// Reading a members file: the export's own output, European Excel's `;` files, a byte order mark, quoted line
// breaks and the export's neutralised `'=` cells, with every cell's place found for the Problems panel.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { csvLine, UTF8_BOM } from '../../../../../../../src/features/members/csv/csv';
import {
  cellOf,
  groupDigest,
  looksLikeMembersFile,
  parseMembersFile,
  readAccountPermission,
  readGroupWord,
  usernameOf,
} from '../../../../../../../src/features/members/plan/core/file/membersFile';

void describe('members file', () => {
  void test("a BOM, `;` from European Excel, a quoted line break and an `'=` cell read back as values", () => {
    const text = `${UTF8_BOM}Username;Name;Tags;group:engineering\r\nann;"Ann\r\nSmith";'=SUM(A1);Basic\r\n"b;ob";Bob;"x, y";\r\n`;
    const file = parseMembersFile(text);
    assert.equal(file.bom, true);
    assert.equal(file.delimiter, ';');
    assert.deepEqual(file.groupColumns, ['engineering']);
    assert.deepEqual(file.problems, []);
    const [ann, bob] = file.rows;
    assert.ok(ann && bob);
    assert.equal(usernameOf(file, ann), 'ann');
    assert.equal(cellOf(file, ann, 'name')?.value, 'Ann\r\nSmith');
    assert.equal(cellOf(file, ann, 'tags')?.value, '=SUM(A1)', "the export's neutralising quote is dropped");
    assert.equal(cellOf(file, ann, 'group:engineering')?.value, 'Basic');
    assert.equal(usernameOf(file, bob), 'b;ob');
    assert.equal(bob.line, 3, 'the quoted line break moves the next row down a line');
    assert.deepEqual(cellOf(file, bob, 'tags')?.span, { line: 3, column: 11, endLine: 3, endColumn: 17 });
    assert.deepEqual(cellOf(file, ann, 'name')?.span, { line: 1, column: 4, endLine: 2, endColumn: 6 });
  });

  void test("places after text of more than one byte a character are counted in the editor's chars", () => {
    const text = 'username,name,email\nzoë,"Zoë 😀 ""名""",z@x\n\n名,😀😀,q@x\n';
    const file = parseMembersFile(text);
    const [zoe, second] = file.rows;
    assert.ok(zoe && second);
    assert.deepEqual(cellOf(file, zoe, 'email')?.span, { line: 1, column: 19, endLine: 1, endColumn: 22 });
    assert.equal(cellOf(file, zoe, 'name')?.value, 'Zoë 😀 "名"');
    assert.equal(second.line, 3, 'the empty line is skipped');
    assert.deepEqual(cellOf(file, second, 'email')?.span, { line: 3, column: 7, endLine: 3, endColumn: 10 });
    assert.deepEqual(cellOf(file, second, 'name')?.span, { line: 3, column: 2, endLine: 3, endColumn: 6 });
  });

  void test('what the export writes (csvLine) reads back cell for cell, formula starts and commas included', () => {
    const cells = ['carol', '=cmd|calc', '+1', 'x, -y; =z', '@at', 'a "quoted", value', 'Group creator'];
    const text =
      UTF8_BOM +
      csvLine(['username', 'name', 'jobTitle', 'tags', 'email', 'lastActive', 'accountPermission']) +
      csvLine(cells);
    const file = parseMembersFile(text);
    assert.equal(file.delimiter, ',');
    assert.deepEqual(file.rows[0]?.values, cells);
  });

  void test("headers: keys, the export's English labels and translated labels; unknown ones have no key", () => {
    const file = parseMembersFile('Benutzer, E-mail ,ACCOUNTPERMISSION,group: Sales ,Shoe size\n', {
      headers: { username: 'Benutzer' },
    });
    assert.deepEqual(
      file.header.map((h) => h.key),
      ['username', 'email', 'accountPermission', 'group:Sales', undefined],
    );
    assert.ok(looksLikeMembersFile('\uFEFFUsername;Name'));
    assert.ok(!looksLikeMembersFile('id,title'));
  });

  void test('an unclosed quote is a csv-malformed problem, not an exception', () => {
    const file = parseMembersFile('username,name\nann,"Ann\n');
    assert.equal(file.problems[0]?.code, 'csv-malformed');
  });

  void test('words: group permissions, account permissions and the group digest', () => {
    assert.equal(readGroupWord(' standard '), 4);
    assert.equal(readGroupWord(''), 0);
    assert.equal(readGroupWord('Admin'), undefined);
    assert.equal(readAccountPermission('super  Administrator'), 16);
    assert.equal(readAccountPermission('Owner'), undefined);
    const a = groupDigest(
      new Map([
        ['Eng', 4],
        ['Ops', 0],
        ['sales', 1],
      ] as const),
    );
    const b = groupDigest(
      new Map([
        ['sales', 1],
        ['eng', 4],
      ] as const),
    );
    assert.equal(a, b, 'order, case and empty cells do not change the digest');
    assert.notEqual(
      a,
      groupDigest(
        new Map([
          ['eng', 16],
          ['sales', 1],
        ] as const),
      ),
    );
  });
});
