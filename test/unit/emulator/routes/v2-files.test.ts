import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DEMO, assertError, type File2, type FilePage, demoAndMemberSuite } from '../helpers';

const files = (group: number) => `/v2/accounts/${DEMO.acme}/groups/${group}/files`;

void describe('v2 files and v3 download', () => {
  const s = demoAndMemberSuite();

  const list = (path: string, token = s.demo) => s.h.call<FilePage>('GET', path, { token });
  const byName = async (group: number, name: string): Promise<File2> => {
    const res = await list(`${files(group)}?recursive=true&size=100&name=${encodeURIComponent(name)}`);
    const f = res.body.page.find((x) => x.name === name);
    assert.ok(f, `${name} exists`);
    return f;
  };

  void test('root listing: v2 file envelope, ordered by name, folders are @folder records', async () => {
    const res = await list(files(DEMO.engineering), s.member);
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body).sort(), ['currentPage', 'nextPage', 'page', 'pageSize']);
    assert.equal(res.body.currentPage, 1);
    assert.equal(res.body.pageSize, 20);
    assert.equal(res.body.nextPage, false);
    assert.deepEqual(
      res.body.page.map((f) => f.name),
      ['config.json', 'docs', 'README.md', 'releases.csv', 'src'],
    );
    const docs = res.body.page.find((f) => f.name === 'docs');
    assert.equal(docs?.contentType, '@folder');
    assert.equal(docs?.parent, null);
    const entry = res.body.page[0];
    assert.ok(entry);
    for (const key of [
      'id',
      'comments',
      'attachments',
      'contextKey',
      'name',
      'friendlyName',
      'description',
      'watermark',
      'contentType',
      'size',
      'uploaded',
      'versions',
      'sharing',
      'memberPermission',
      'hidden',
      'tags',
      'locked',
      'locker',
      'dateLocked',
      'lastModified',
      'previewInfo',
      'inputStream',
      'path',
      'available',
      'type',
      'parent',
      'group',
    ]) {
      assert.ok(key in entry, key);
    }
    assert.equal(entry.type, 'file');
  });

  void test('ordering by name, lastModified and size, both directions; unknown orderBy is 400', async () => {
    const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });
    const all = `${files(DEMO.engineering)}?recursive=true&size=100`;
    const names = (await list(`${all}&orderBy=name`)).body.page.map((f) => f.name);
    assert.deepEqual(
      names,
      [...names].sort((a, b) => collator.compare(a, b)),
    );
    const dates = (await list(`${all}&orderBy=lastModified`)).body.page.map((f) => f.lastModified);
    assert.deepEqual(
      dates,
      [...dates].sort((a, b) => a - b),
    );
    const sizes = (await list(`${all}&orderBy=size&ascending=false`)).body.page.map((f) => f.size);
    assert.deepEqual(
      sizes,
      [...sizes].sort((a, b) => b - a),
    );
    const descNames = (await list(`${all}&orderBy=name&ascending=false`)).body.page.map((f) => f.name);
    assert.deepEqual(descNames, [...names].reverse());
    assertError(await list(`${all}&orderBy=colour`), 400, 'invalid_input');
  });

  void test('filters: name substring, modifiedAfter (exclusive), foldersOnly; paging with nextPage', async () => {
    const all = (await list(`${files(DEMO.engineering)}?recursive=true&size=100`)).body.page;
    const named = await list(`${files(DEMO.engineering)}?recursive=true&name=.TS`);
    assert.deepEqual(named.body.page.map((f) => f.name).sort(), ['format.ts', 'index.ts']);
    const sorted = [...all].sort((a, b) => a.lastModified - b.lastModified);
    const pivot = sorted[3];
    assert.ok(pivot);
    const recent = await list(`${files(DEMO.engineering)}?recursive=true&size=100&modifiedAfter=${pivot.lastModified}`);
    assert.deepEqual(
      recent.body.page.map((f) => f.id).sort(),
      all
        .filter((f) => f.lastModified > pivot.lastModified)
        .map((f) => f.id)
        .sort(),
    );
    const folders = await list(`${files(DEMO.engineering)}?recursive=true&foldersOnly=true`);
    assert.deepEqual(
      folders.body.page.map((f) => f.name),
      ['diagrams', 'docs', 'src', 'utils'],
    );
    const p1 = await list(`${files(DEMO.engineering)}?recursive=true&size=4`);
    assert.equal(p1.body.nextPage, true);
    const p3 = await list(`${files(DEMO.engineering)}?recursive=true&size=4&page=3`);
    assert.equal(p3.body.nextPage, false);
    assert.equal(p3.body.page.length, all.length - 8);
    assertError(await list(`${files(DEMO.engineering)}?modifiedAfter=yesterday`), 400, 'invalid_input');
    assertError(await list(`${files(DEMO.engineering)}?foldersOnly=perhaps`), 400, 'invalid_input');
  });

  void test('children of a folder; files//children and files/0/children are the root; a file is not a folder', async () => {
    const src = await byName(DEMO.engineering, 'src');
    const children = await list(`${files(DEMO.engineering)}/${src.id}/children`);
    assert.equal(children.status, 200);
    assert.deepEqual(
      children.body.page.map((f) => f.name),
      ['index.ts', 'utils'],
    );
    assert.ok(children.body.page.every((f) => f.parent === src.id));
    const root = (await list(files(DEMO.engineering))).body.page.map((f) => f.id);
    assert.deepEqual(
      (await list(`${files(DEMO.engineering)}//children`)).body.page.map((f) => f.id),
      root,
    );
    assert.deepEqual(
      (await list(`${files(DEMO.engineering)}/0/children`)).body.page.map((f) => f.id),
      root,
    );
    const readme = await byName(DEMO.engineering, 'README.md');
    assertError(await list(`${files(DEMO.engineering)}/${readme.id}/children`), 400, 'invalid_input');
    const otherGroupFolder = await byName(DEMO.marketing, 'brand');
    assertError(await list(`${files(DEMO.engineering)}/${otherGroupFolder.id}/children`), 404, 'not_found');
    assertError(await list(`${files(DEMO.engineering)}/424242/children`), 404, 'not_found');
  });

  void test('single record carries description, tags, versions, uploader, lock fields, path and group', async () => {
    const format = await byName(DEMO.engineering, 'format.ts');
    assert.equal(format.path, null, 'lists are lean');
    const res = await s.h.call<File2>('GET', `${files(DEMO.engineering)}/${format.id}`, { token: s.member });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.path, ['src', 'utils']);
    assert.equal(res.body.versions, 2);
    assert.equal(res.body.locked, true);
    assert.equal((res.body.locker as { username: string }).username, 'demo');
    assert.equal(typeof res.body.dateLocked, 'number');
    assert.equal(res.body.uploaded?.name, 'Dana Demo');
    assert.equal((res.body.group as { name: string }).name, 'engineering');
    const readme = await byName(DEMO.engineering, 'README.md');
    const detail = await s.h.call<File2>('GET', `${files(DEMO.engineering)}/${readme.id}`, { token: s.demo });
    assert.equal(detail.body.description, 'Start here');
    assert.equal(detail.body.tags, 'docs,onboarding');
    assert.deepEqual(detail.body.path, []);
    assertError(await s.h.call('GET', `${files(DEMO.engineering)}/999999`, { token: s.demo }), 404, 'not_found');
    assertError(await s.h.call('GET', `${files(DEMO.marketing)}/${readme.id}`, { token: s.demo }), 404, 'not_found');
  });

  void test('a member cannot list files of a group they are not in (404)', async () => {
    assertError(await list(files(DEMO.handbook), s.member), 404, 'not_found');
    assert.equal((await list(files(DEMO.handbook), s.demo)).status, 200, 'super administrators see every group');
  });

  void test('download: bytes with Content-Type, Content-Disposition and Content-Length', async () => {
    const readme = await byName(DEMO.engineering, 'README.md');
    const res = await fetch(`${s.h.url}/v3/groups/${DEMO.engineering}/files/${readme.id}/download`, {
      headers: { Authorization: `Bearer ${s.member}` },
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/markdown');
    assert.equal(
      res.headers.get('content-disposition'),
      `attachment; filename="README.md"; filename*=UTF-8''README.md`,
    );
    const text = await res.text();
    assert.match(text, /^# Engineering/);
    assert.equal(Number(res.headers.get('content-length')), Buffer.byteLength(text));
    assert.equal(Buffer.byteLength(text), readme.size);

    const png = await byName(DEMO.engineering, 'overview.png');
    const img = await fetch(`${s.h.url}/v3/groups/${DEMO.engineering}/files/${png.id}/download`, {
      headers: { Authorization: `Bearer ${s.member}` },
    });
    const bytes = Buffer.from(await img.arrayBuffer());
    assert.equal(img.headers.get('content-type'), 'image/png');
    assert.equal(bytes.length, png.size);
    assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

    const pdf = await byName(DEMO.marketing, 'guidelines.pdf');
    const doc = await fetch(`${s.h.url}/v3/groups/${DEMO.marketing}/files/${pdf.id}/download`, {
      headers: { Authorization: `Bearer ${s.member}` },
    });
    const pdfText = Buffer.from(await doc.arrayBuffer()).toString('latin1');
    assert.ok(pdfText.startsWith('%PDF-'));
    assert.equal(Buffer.byteLength(pdfText, 'latin1'), pdf.size);

    const json = await byName(DEMO.engineering, 'config.json');
    const cfg = await s.h.call<{ retries: number }>('GET', `/v3/groups/${DEMO.engineering}/files/${json.id}/download`, {
      token: s.member,
    });
    assert.equal(cfg.body.retries, 3);
  });

  void test('download refusals: folder 400, non-member 404, unknown file 404, no token 401', async () => {
    const src = await byName(DEMO.engineering, 'src');
    assertError(
      await s.h.call('GET', `/v3/groups/${DEMO.engineering}/files/${src.id}/download`, { token: s.demo }),
      400,
      'invalid_input',
    );
    const welcome = await byName(DEMO.handbook, 'welcome.md');
    assertError(
      await s.h.call('GET', `/v3/groups/${DEMO.handbook}/files/${welcome.id}/download`, { token: s.member }),
      404,
      'not_found',
    );
    assertError(
      await s.h.call('GET', `/v3/groups/${DEMO.engineering}/files/${welcome.id}/download`, { token: s.demo }),
      404,
      'not_found',
    );
    assertError(
      await s.h.call('GET', `/v3/groups/${DEMO.research}/files/1/download`, { token: s.member }),
      404,
      'not_found',
    );
    assertError(
      await s.h.call('GET', `/v3/groups/${DEMO.engineering}/files/${welcome.id}/download`),
      401,
      'unauthorized',
    );
  });
});
