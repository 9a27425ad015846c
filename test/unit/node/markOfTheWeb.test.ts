// Mark-of-the-Web: the Zone.Identifier stream written beside a download on Windows, and nowhere else.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { markOfTheWeb, zoneIdentifier } from '../../../src/node/markOfTheWeb';

void test('on Windows a download gets a Zone.Identifier stream: Internet zone, the portal origin only', async () => {
  const written: Array<[string, string]> = [];
  const marked = await markOfTheWeb(
    'C:\\Users\\me\\Downloads\\report.docm',
    'https://user:pw@portal.example:8443/api/base?x=1#y',
    'win32',
    async (path, content) => {
      written.push([path, content]);
    },
  );
  assert.equal(marked, true);
  assert.deepEqual(written, [
    [
      'C:\\Users\\me\\Downloads\\report.docm:Zone.Identifier',
      '[ZoneTransfer]\r\nZoneId=3\r\nHostUrl=https://portal.example:8443\r\n',
    ],
  ]);
});

void test('on other platforms nothing is written', async () => {
  for (const platform of ['linux', 'darwin', 'freebsd'] as const) {
    const written: string[] = [];
    assert.equal(
      await markOfTheWeb('/tmp/report.docm', 'https://portal.example', platform, async (path) => {
        written.push(path);
      }),
      false,
    );
    assert.deepEqual(written, [], platform);
  }
});

void test('a file system without alternate streams keeps the download: the mark is reported as not written', async () => {
  const marked = await markOfTheWeb('E:\\report.docm', 'https://portal.example', 'win32', async () => {
    throw Object.assign(new Error('not supported'), { code: 'EINVAL' });
  });
  assert.equal(marked, false);
});

void test('the stream carries no line a URL could smuggle in', () => {
  assert.equal(
    zoneIdentifier('http://127.0.0.1:8787/%0d%0aZoneId=0'),
    '[ZoneTransfer]\r\nZoneId=3\r\nHostUrl=http://127.0.0.1:8787\r\n',
  );
});
