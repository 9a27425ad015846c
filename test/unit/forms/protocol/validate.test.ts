import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assignmentsCommands } from '../../../../src/features/members/forms/assignments/assignments.protocol';
import { arrayOf, int, messages, object, optional, str } from '../../../../src/forms/protocol/validate';

const good = {
  type: 'save',
  values: {
    accountId: 1,
    username: 'member',
    groups: [{ id: 101, permission: 4 }],
    accountPermission: 1,
    tags: ['a'],
    enabled: true,
    locked: false,
    assignToNewGroups: 0,
    notify: false,
  },
};

void test('a well-formed save passes and comes back as the same value', () => {
  const r = assignmentsCommands(good, '');
  assert.ok(r.ok);
  assert.deepEqual(r.value, good);
});

void test('an unknown command is named as such', () => {
  const r = assignmentsCommands({ type: 'deleteEverything' }, '');
  assert.equal(r.ok, false);
  assert.match(r.ok ? '' : r.error, /not a known command/);
});

void test('messages that are not objects, or have no string type, are refused', () => {
  for (const m of [null, 42, 'save', [], { type: 7 }, {}])
    assert.equal(assignmentsCommands(m, '').ok, false, JSON.stringify(m));
});

void test('wrong field types, out-of-range permissions and extra properties are refused', () => {
  const variants: unknown[] = [
    { ...good, values: { ...good.values, accountId: '1' } },
    { ...good, values: { ...good.values, accountPermission: 2 } },
    { ...good, values: { ...good.values, groups: [{ id: 101, permission: 8 }] } },
    { ...good, values: { ...good.values, groups: [{ id: 1.5, permission: 4 }] } },
    { ...good, values: { ...good.values, tags: [''] } },
    // Past any text a form carries (a tag's own limit is the member checks' and the portal's, said as a field error).
    { ...good, values: { ...good.values, tags: ['x'.repeat(10_001)] } },
    { ...good, values: { ...good.values, enabled: 'yes' } },
    { ...good, values: { ...good.values, extra: 1 } },
    { ...good, extra: 1 },
    { type: 'save' },
    { type: 'ready', values: {} },
  ];
  for (const v of variants) assert.equal(assignmentsCommands(v, '').ok, false, JSON.stringify(v));
});

void test('lists have a maximum length', () => {
  const check = arrayOf(int(), { max: 3 });
  assert.ok(check([1, 2, 3], 'x').ok);
  assert.equal(check([1, 2, 3, 4], 'x').ok, false);
});

void test('optional properties may be missing but not mistyped', () => {
  const check = object({ a: str(), b: optional(int()) });
  assert.ok(check({ a: 'x' }, '').ok);
  assert.equal(check({ a: 'x', b: 'y' }, '').ok, false);
});

void test('an error names the path of the bad field', () => {
  const check = messages({ save: { values: object({ n: int({ max: 3 }) }) } });
  const r = check({ type: 'save', values: { n: 4 } }, '');
  assert.equal(r.ok ? '' : r.error, 'values.n must be at most 3');
});
