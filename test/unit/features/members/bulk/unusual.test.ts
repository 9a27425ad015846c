// A bulk confirmation names who is unusual in the selection, from the members' own data: the whole of acme selected
// for a disable names the starters still awaiting activation, the Super administrators and those already disabled.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { collect } from '../../../../../src/api';
import { memberRow } from '../../../../../src/shared/members';
import { unusualIn } from '../../../../../src/features/members/bulk/unusual';
import { accountIdOf, demoClient, emulator } from '../../helpers';

void describe('bulk: who is unusual in a selection', () => {
  void test('a disable of all of acme names the never-activated, the Super administrators and the already disabled', async () => {
    const emu = await emulator({});
    const client = await demoClient(emu);
    try {
      const rows = (await collect(client.v3.members.iterate(await accountIdOf(client, 'acme')))).map(memberRow);
      const now = Math.max(...rows.map((r) => r.lastActive ?? 0)) + 1;
      const u = unusualIn({ kind: 'disable' }, rows, now);
      const expect = (test: (r: (typeof rows)[number]) => boolean) =>
        rows
          .filter(test)
          .map((r) => r.username)
          .sort();
      assert.deepEqual(
        [...u.pending].sort(),
        expect((r) => r.lastActive === null),
      );
      assert.ok(u.pending.length > 0, 'the seed has members who never signed in');
      assert.deepEqual(
        [...u.superAdministrators].sort(),
        expect((r) => r.permission === 16),
      );
      assert.ok(u.superAdministrators.includes('demo'));
      assert.deepEqual(
        [...u.already].sort(),
        expect((r) => !r.enabled),
      );
      assert.ok(u.already.includes('victor.hale'));
      const later = rows.find((r) => r.activation === 'custom' && r.lastActive !== null);
      assert.ok(later, 'a member whose activation e-mail is set for a date');
      assert.ok(unusualIn({ kind: 'disable' }, [later], (later.activationDate ?? 0) - 1).pending.length === 1);
      assert.deepEqual(
        [...unusualIn({ kind: 'enable' }, rows, now).already].sort(),
        expect((r) => r.enabled),
      );
    } finally {
      client.close();
      await emu.stop();
    }
  });
});
