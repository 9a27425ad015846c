// Members read by name for a plan (Finish Review's): few names are read one by one, many by one walk of the member
// list that stops once all are found, and a name the portal no longer holds is reported gone either way.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { collect, type PortalClient } from '../../../../src/api';
import { readNamedMembers } from '../../../../src/engine/members/namedRead';
import { apiRequests, demoClient, emulator, type Emulator } from '../../features/helpers';

void describe('members read by name', () => {
  let emu: Emulator;
  let client: PortalClient;
  let account: number;
  let usernames: string[];

  before(async () => {
    emu = await emulator({ seed: 'large', large: { members: 1000, files: 10, groups: 5 } });
    client = await demoClient(emu);
    const first = (await client.v3.accounts.list())[0];
    assert.ok(first, 'the seed has an organisation');
    account = first.id;
    usernames = (await collect(client.v3.members.iterate(account))).map((m) => m.user.username);
    assert.ok(usernames.length > 900, `the seed's organisation has ${usernames.length} members`);
  });
  after(async () => {
    client.close();
    await emu.stop();
  });

  const read = async (names: string[]) => {
    emu.resetStats();
    const r = await readNamedMembers(client, account, names, { concurrency: 4 });
    return { ...r, sent: apiRequests(emu, /members/) };
  };

  void it('reads a few members one by one, and says which are gone', async () => {
    const [a = '', b = ''] = [usernames[950], usernames[990]];
    const few = [a, b.toUpperCase(), 'nobody.here'];
    const r = await read(few);
    assert.deepEqual([...r.members.keys()].sort(), [a, b].map((u) => u.toLowerCase()).sort());
    assert.equal(r.members.get(a.toLowerCase())?.username, a, 'as the portal spells it');
    assert.deepEqual(r.gone, ['nobody.here']);
    assert.equal(r.sent, 1 + few.length, 'the first page, then one read per member not on it');
    assert.equal(r.requests, r.sent);
  });

  void it('walks the list for many members and stops once all are found', async () => {
    const many = usernames.slice(100, 400);
    const r = await read([...many, 'nobody.here']);
    assert.equal(r.members.size, many.length);
    assert.deepEqual(r.gone, ['nobody.here'], 'walked to the end for the one not found');
    assert.ok(r.sent < many.length, `${r.sent} requests for ${many.length} members`);

    const early = await read(usernames.slice(0, 250));
    assert.equal(early.members.size, 250);
    assert.deepEqual(early.gone, []);
    const pages = Math.ceil(usernames.length / 100);
    assert.ok(early.requests < pages, `stopped after ${early.requests} of ${pages} pages (with those read ahead)`);
  });
});
