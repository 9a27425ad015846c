// Content rights in words: every bit spec 2.9 names, combinations of them, and anything else shown as the number
// "(not understood)"; `sharing` as the observations explain it, other values as sent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ContentPermission } from '../../../src/api/permissions';
import { contentRightsWords, sharingWords } from '../../../src/shared/contentRights';

void test('each content bit the spec names reads as its words', () => {
  assert.equal(contentRightsWords(ContentPermission.View), 'View only');
  assert.equal(contentRightsWords(ContentPermission.ViewDownloadShare), 'View, download and share');
  assert.equal(contentRightsWords(ContentPermission.Edit), 'View and edit');
  assert.equal(contentRightsWords(ContentPermission.EditDelete), 'View, edit and delete');
  assert.equal(contentRightsWords(ContentPermission.Administer), 'Administer (no restrictions)');
});

void test('a mask of several named bits lists each, highest first', () => {
  assert.equal(contentRightsWords(1 | 4), 'View and edit + View only');
  assert.equal(
    contentRightsWords(31),
    'Administer (no restrictions) + View, edit and delete + View and edit + View, download and share + View only',
  );
});

void test('a mask with a bit the spec does not name, or no bit at all, is the number "(not understood)"', () => {
  assert.equal(contentRightsWords(32), '32 (not understood)');
  assert.equal(contentRightsWords(36), '36 (not understood)');
  assert.equal(contentRightsWords(0), '0 (not understood)');
  assert.equal(contentRightsWords(-1), '-1 (not understood)');
  assert.equal(contentRightsWords(2.5), '2.5 (not understood)');
  assert.equal(contentRightsWords(null), 'Not given');
  assert.equal(contentRightsWords(undefined), 'Not given');
});

void test('sharing: MEMBERS and NONE in words, anything else as sent and said so, through the escape given', () => {
  assert.equal(sharingWords('MEMBERS'), "the group's members");
  assert.equal(sharingWords('NONE'), 'nobody');
  assert.equal(sharingWords('PUBLIC'), 'PUBLIC (as the portal sent it)');
  assert.equal(
    sharingWords('[x](command:y)', (v) => v.replace(/[[\]()]/g, '\\$&')),
    '\\[x\\]\\(command:y\\) (as the portal sent it)',
  );
  assert.equal(sharingWords(null), 'Not given');
  assert.equal(sharingWords(''), 'Not given');
});
