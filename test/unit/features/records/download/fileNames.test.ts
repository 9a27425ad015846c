import { test } from 'node:test';
import assert from 'node:assert/strict';
import { freeName, localFileName } from '../../../../../src/features/records/download/fileNames';

void test('local file names: reserved names and characters are replaced, a taken name gets the next free number', () => {
  assert.equal(localFileName('con'), 'download-con');
  assert.equal(localFileName('a<b>:c?.txt'), 'a_b__c_.txt');
  const taken = new Set(['/d/report.pdf', '/d/report (1).pdf']);
  assert.equal(
    freeName('/d', 'report.pdf', (p) => taken.has(p)),
    'report (2).pdf',
  );
});
