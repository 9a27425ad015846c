// The mapping's proposal from HR's headers and values, the date format's detection, and the saved mapping read as
// untrusted input.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  detectDateFormat,
  mappingText,
  parseMapping,
  proposeColumns,
  proposeDepartment,
  readSheetDate,
  type ImportMapping,
} from '../../../../../src/features/members/import/mapping';
import { HR_HEADERS, SIX_STARTERS } from './hrSheet';

const GROUPS = [
  { name: 'engineering', friendlyName: 'Engineering' },
  { name: 'handbook', friendlyName: 'Employee Handbook' },
];

void describe('proposeColumns', () => {
  void test('HR’s headers: first and last name, e-mail, department, start date', () => {
    assert.deepEqual(proposeColumns({ headers: HR_HEADERS, rows: SIX_STARTERS, truncated: false }), {
      'First name': 'firstName',
      'Last name': 'lastName',
      Email: 'email',
      Department: 'department',
      'Start date': 'activationDate',
    });
  });

  void test('unknown headers are read from their values; a meaning goes to one column only', () => {
    const rows = [['a@x.example', '05/01/2099', 'b@x.example', 'x']];
    assert.deepEqual(proposeColumns({ headers: ['Contact', 'When', 'Other', 'Notes'], rows, truncated: false }), {
      Contact: 'email',
      When: 'activationDate',
      Other: 'ignore',
      Notes: 'ignore',
    });
  });
});

void describe('dates', () => {
  void test('05/01/2099 reads both ways, so no format is proposed; a day over 12 tells', () => {
    assert.equal(detectDateFormat(['05/01/2099', '06/02/2099']), undefined);
    assert.equal(detectDateFormat(['05/01/2099', '25/01/2099']), 'dmy');
    assert.equal(detectDateFormat(['05/01/2099', '01/25/2099']), 'mdy');
    assert.equal(detectDateFormat(['2099-01-05', '']), 'ymd');
  });

  void test('readSheetDate reads the chosen format and refuses days that do not exist', () => {
    assert.equal(readSheetDate('05/01/2099', 'dmy'), '2099-01-05');
    assert.equal(readSheetDate('05/01/2099', 'mdy'), '2099-05-01');
    assert.equal(readSheetDate('2099-01-05', undefined), '2099-01-05');
    assert.equal(readSheetDate('31/02/2099', 'dmy'), undefined);
    assert.equal(readSheetDate('05/01/2099', undefined), undefined);
  });
});

void describe('departments', () => {
  void test('a department is proposed the group of its friendly name, at Standard; an unknown one no group', () => {
    assert.deepEqual(proposeDepartment(' employee  handbook', GROUPS), { group: 'handbook', level: 'Standard' });
    assert.deepEqual(proposeDepartment('Engineering', GROUPS), { group: 'engineering', level: 'Standard' });
    assert.equal(proposeDepartment('Legal', GROUPS), null);
  });
});

void describe('parseMapping', () => {
  const mapping: ImportMapping = {
    portalId: 'demo-portal',
    accountId: 1,
    accountLabel: 'Acme Corporation',
    columns: { 'First name': 'firstName', Email: 'email' },
    dateFormat: 'dmy',
    usernames: 'first.last',
    departments: { engineering: { group: 'engineering', level: 'Standard' }, legal: null },
  };

  void test('a saved mapping reads back as it was written', () => {
    assert.deepEqual(parseMapping(mappingText(mapping)), mapping);
  });

  void test('anything else is refused: not JSON, another kind, an unknown meaning, a bad level, a huge table', () => {
    const json = JSON.parse(mappingText(mapping)) as Record<string, unknown>;
    const bad = (patch: Record<string, unknown>) => JSON.stringify({ ...json, ...patch });
    assert.equal(parseMapping('{'), undefined);
    assert.equal(parseMapping(bad({ kind: 'other' })), undefined);
    assert.equal(parseMapping(bad({ version: 2 })), undefined);
    assert.equal(parseMapping(bad({ columns: { Email: 'password' } })), undefined);
    assert.equal(parseMapping(bad({ departments: { x: { group: 'g', level: 'Owner' } } })), undefined);
    assert.equal(parseMapping(bad({ accountId: '1' })), undefined);
    assert.equal(parseMapping(bad({ usernames: 'anything' })), undefined);
    const many = Object.fromEntries(Array.from({ length: 2001 }, (_, i) => [`d${i}`, null]));
    assert.equal(parseMapping(bad({ departments: many })), undefined);
    assert.equal(parseMapping(bad({ accountLabel: 'x'.repeat(201) })), undefined);
  });
});
