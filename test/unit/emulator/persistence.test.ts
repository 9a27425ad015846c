import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { closeSync, fstatSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startEmulator } from '../../emulator';
import { DEMO, startHarness, type App3, type Group2 } from './helpers';
import { tempDir as newTempDir } from '../../support/tempDir';

function tempDir(): string {
  return newTempDir('portal-emulator-');
}

void describe('persistence', () => {
  void test('state survives a restart: data and tokens; the file is written by rename, no temp file left', async () => {
    const dir = tempDir();
    const file = join(dir, 'state.json');
    try {
      const first = await startHarness({ dataFile: file });
      const token = await first.login();
      const app = await first.call<App3>('POST', '/v3/applications', { token, body: { name: 'persisted app' } });
      assert.equal(
        (await first.call('POST', `/v2/accounts/${DEMO.acme}/groups`, { token, body: { name: 'persisted-group' } }))
          .status,
        200,
      );
      assert.equal(
        (await first.call('DELETE', `/v3/accounts/${DEMO.acme}/members/victor.hale`, { token })).status,
        200,
      );
      await first.stop();
      assert.deepEqual(readdirSync(dir), ['state.json']);
      assert.doesNotThrow(() => JSON.parse(readFileSync(file, 'utf8')));

      const second = await startHarness({ dataFile: file });
      try {
        assert.equal((await second.call('GET', '/v3/userinfo', { token })).status, 200, 'the old token still works');
        const apps = await second.call<App3[]>('GET', '/v3/applications', { token });
        assert.ok(apps.body.some((a) => a.clientId === app.body.clientId));
        const cc = await second.call(
          'GET',
          `/oauth/token?grant_type=client_credentials&client_id=${app.body.clientId}&client_secret=${app.body.clientSecret}`,
        );
        assert.equal(cc.status, 200);
        const groups = await second.call<Group2[]>('GET', `/v2/accounts/${DEMO.acme}/groups`, { token });
        assert.ok(groups.body.some((g) => g.name === 'persisted-group'));
        const g = groups.body.find((x) => x.name === 'persisted-group');
        assert.equal(g?.members, 3, 'group membership (a Map) round-trips');
        assert.equal(
          (await second.call('GET', `/v3/accounts/${DEMO.acme}/members/victor.hale`, { token })).status,
          404,
        );
        // New ids continue after the persisted ones.
        const another = await second.call('POST', `/v2/accounts/${DEMO.acme}/groups`, {
          token,
          body: { name: 'another-group' },
        });
        assert.equal(another.status, 200);
        const all = await second.call<Group2[]>('GET', `/v2/accounts/${DEMO.acme}/groups`, { token });
        const ids = all.body.map((x) => x.id);
        assert.equal(new Set(ids).size, ids.length);
      } finally {
        await second.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  void test('changes are written soon after each request, not only on stop', async () => {
    const dir = tempDir();
    const file = join(dir, 'state.json');
    try {
      const h = await startHarness({ dataFile: file });
      try {
        const token = await h.login();
        // Held open, the file as it was keeps its inode (no later file can reuse the number) and its bytes.
        const before = openSync(file, 'r');
        try {
          const inodeBefore = fstatSync(before).ino;
          await h.call('POST', '/v3/applications', { token, body: { name: 'written soon' } });
          // Soon is before the emulator stops; the bound is only so a broken write fails instead of hanging.
          let found = false;
          for (let i = 0; i < 1200 && !found; i++) {
            await new Promise((r) => setTimeout(r, 50));
            found = readFileSync(file, 'utf8').includes('written soon');
          }
          assert.ok(found);
          assert.ok(!readdirSync(dir).some((f) => f.endsWith('.tmp')), 'no temp file left');
          // Replaced by rename, never rewritten in place: a new inode, and the old one's bytes untouched.
          assert.notEqual(statSync(file).ino, inodeBefore);
          assert.ok(!readFileSync(before, 'utf8').includes('written soon'), 'the old file was rewritten in place');
        } finally {
          closeSync(before);
        }
      } finally {
        await h.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  void test('a torn temp file from a crash is ignored; the last complete file is loaded', async () => {
    const dir = tempDir();
    const file = join(dir, 'state.json');
    try {
      const h = await startHarness({ dataFile: file, seed: 'empty' });
      await h.stop();
      // What a crash in the middle of a write leaves behind: a partial temp file next to the good one.
      writeFileSync(join(dir, '.state.json.99999.tmp'), '{"format":"portal-emul');
      const again = await startHarness({ dataFile: file, seed: 'demo' });
      try {
        const token = await again.login();
        const accounts = await again.call<Array<{ name: string }>>('GET', '/v3/accounts', { token });
        assert.deepEqual(
          accounts.body.map((a) => a.name),
          ['empty'],
          'the file wins over the seed option',
        );
      } finally {
        await again.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  void test('a corrupt or foreign data file makes startEmulator reject with a clear message', async () => {
    const dir = tempDir();
    try {
      const torn = join(dir, 'torn.json');
      writeFileSync(torn, '{"format":"portal-emulator-state","version":1,"data":{"us');
      await assert.rejects(startEmulator({ dataFile: torn, quiet: true }), /not valid JSON/);
      const foreign = join(dir, 'foreign.json');
      writeFileSync(foreign, JSON.stringify({ hello: 'world' }));
      await assert.rejects(startEmulator({ dataFile: foreign, quiet: true }), /not a portal-emulator-state/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
