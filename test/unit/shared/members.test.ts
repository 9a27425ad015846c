import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeQuery, isFiltered, memberOrders, parseSearch, searchText } from '../../../src/shared/members';

void test('member search: "^" means starts with, and reads back the same', () => {
  assert.deepEqual(parseSearch('  ann '), { search: 'ann' });
  assert.deepEqual(parseSearch('^ann'), { search: 'ann', startsWith: true });
  assert.deepEqual(parseSearch('^'), {});
  assert.deepEqual(parseSearch(''), {});
  assert.equal(searchText(parseSearch('^ann')), '^ann');
  assert.equal(searchText({}), '');
});

void test("the view's description says the search, the tags and a non-default order", () => {
  assert.equal(describeQuery({}), '');
  assert.equal(describeQuery({ orderBy: 'name', ascending: true }), '', 'the default order is not mentioned');
  assert.equal(describeQuery({ search: 'ann' }), 'matches "ann"');
  assert.equal(describeQuery({ search: 'ann', startsWith: true }), 'starts with "ann"');
  assert.equal(describeQuery({ tags: ['a', 'b'] }), 'tagged #a, #b');
  assert.equal(describeQuery({ orderBy: 'email', ascending: true }), 'by e-mail');
  assert.equal(describeQuery({ orderBy: 'name', ascending: false }), 'by name, descending');
});

void test('every order offered has its own words, and a sort alone is not a filter', () => {
  const orders = memberOrders();
  assert.equal(new Set(orders.map((o) => o.words)).size, orders.length);
  for (const o of orders)
    assert.ok(
      describeQuery({ orderBy: o.orderBy, ascending: o.ascending }) === '' || describeQuery(o).includes(o.words),
    );
  assert.equal(isFiltered({ orderBy: 'email' }), false);
  assert.equal(isFiltered({ tags: ['x'] }), true);
});
