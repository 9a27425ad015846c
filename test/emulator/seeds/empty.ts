// The empty seed: the documented logins and one organisation with nothing in it, for empty states.
import { Store } from '../store';
import { SEED_BASE, makeAccount, makeUser } from './common';

export function emptySeed(): Store {
  const store = new Store();
  const demo = makeUser(store, { username: 'demo', name: 'Dana Demo', email: 'demo@empty.example' });
  const twoFa = makeUser(store, {
    username: 'demo-2fa',
    name: 'Tomás Twofactor',
    email: 'demo-2fa@empty.example',
    twoFactorCode: '123456',
    twoFactorMode: 'Authenticator',
  });
  const member = makeUser(store, { username: 'member', name: 'Mia Member', email: 'member@empty.example' });
  const account = makeAccount(store, { name: 'empty', friendlyName: 'Empty Organisation', creatorId: demo.id });
  for (const [user, permission] of [
    [demo, 16],
    [twoFa, 4],
    [member, 1],
  ] as const) {
    store.addMembership({
      accountId: account.id,
      userId: user.id,
      permission,
      assignToNewGroupsPermission: 0,
      tags: [],
      dateCreated: SEED_BASE,
      activationType: 'now',
    });
  }
  return store;
}
