import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  PortalError,
  normaliseDateFormat,
  normaliseActivation,
  parseUser,
  parseUserInfo,
  parseAccount,
  parseSubscription,
  parseComponent,
  parseApplication,
  parseApplicationV2,
  parseMember,
  parseMemberTagSummary,
  parseUserV2,
  parseAccountV2,
  parseGroup,
  parseCreatedGroup,
  parseMemberV2,
  parseFileRecord,
  parseCustomNames,
  parseItemsEnvelope,
  parsePageEnvelope,
  pageFromArray,
  AccountPermission,
  GroupPermission,
  ContentPermission,
} from '../../../src/api';

const invalid = (e: unknown) => e instanceof PortalError && e.kind === 'invalid-response';

void test('dateFormat: string in any spelling, boolean and null', () => {
  assert.equal(normaliseDateFormat('YMD'), 'YMD');
  assert.equal(normaliseDateFormat('d-m-y'), 'DMY');
  assert.equal(normaliseDateFormat('mm/dd/yyyy'), 'MDY');
  assert.equal(normaliseDateFormat(true), null);
  assert.equal(normaliseDateFormat(false), null);
  assert.equal(normaliseDateFormat(null), null);
  assert.equal(normaliseDateFormat('whatever'), null);
});

void test('activationType: string or number', () => {
  assert.deepEqual(normaliseActivation('now'), { mode: 'now', date: null });
  assert.deepEqual(normaliseActivation('CUSTOM', 1700000000000), { mode: 'custom', date: 1700000000000 });
  assert.deepEqual(normaliseActivation(1700000000000), { mode: 'custom', date: 1700000000000 });
  assert.deepEqual(normaliseActivation(null), { mode: null, date: null });
  assert.deepEqual(normaliseActivation('later?'), { mode: null, date: null });
});

void test('User tolerates nulls and unknown fields; only id is required', () => {
  const u = parseUser({
    id: 5,
    username: 'a',
    name: null,
    jobTitle: null,
    dateFormat: true,
    lastActive: null,
    extra: { x: 1 },
  });
  assert.equal(u.id, 5);
  assert.equal(u.name, '');
  assert.equal(u.jobTitle, null);
  assert.equal(u.dateFormat, null);
  assert.equal(u.twentyFourHourTimeFormat, null);
  assert.ok(!('extra' in u));
  assert.throws(() => parseUser({ username: 'a' }), invalid);
  assert.throws(() => parseUser('nope'), invalid);
});

void test('Userinfo reads the user from the service-named field', () => {
  const json = {
    name: 'demo',
    portal: { id: 1, username: 'demo', dateFormat: 'DMY' },
    authorities: ['ROLE_USER'],
    accounts: [
      {
        account: { id: 2, name: 'acme' },
        subscription: { code: 'p', trialExpires: null, paused: false },
        permission: 16,
        components: null,
        metadata: { a: 'b', n: 1 },
      },
    ],
  };
  const info = parseUserInfo(json, 'portal');
  assert.equal(info.user?.dateFormat, 'DMY');
  assert.equal(info.accounts[0]?.components, null);
  assert.deepEqual({ ...info.accounts[0]?.metadata }, { a: 'b', n: '1' });
  assert.deepEqual(info.accounts[0]?.features, []);
  assert.equal(parseUserInfo(json, 'other').user, null);
  assert.equal(parseUserInfo({ ...json, accounts: undefined }, 'portal').accounts.length, 0);
});

void test('Account, Subscription, Component', () => {
  assert.equal(parseAccount({ id: 1, name: 'acme' }).friendlyName, 'acme');
  assert.deepEqual(parseAccount({ id: 1, twoFactorModes: null }).twoFactorModes, []);
  assert.throws(() => parseAccount({ name: 'x' }), invalid);
  const s = parseSubscription({
    accountPackage: { code: 'x', trialExpires: null, planDetails: null },
    plan: 'Pro',
    billingDetails: null,
  });
  assert.equal(s.accountPackage.trialExpires, null);
  assert.equal(s.billingDetails, null);
  assert.equal(parseSubscription({}).plan, '');
  assert.equal(parseComponent({ name: 'files', beta: null }).beta, false);
  assert.throws(() => parseComponent({ title: 'x' }), invalid);
});

void test('Applications v3 and v2', () => {
  const a = parseApplication({ clientId: 'c1', portal: { id: 1, username: 'demo' }, lastActivity: null }, 'portal');
  assert.equal(a.owner?.username, 'demo');
  assert.ok(!('clientSecret' in a));
  assert.equal(parseApplication({ clientId: 'c1', clientSecret: 's' }, 'portal').clientSecret, 's');
  assert.throws(() => parseApplication({ name: 'x' }, 'portal'), invalid);
  const v2 = parseApplicationV2(
    { id: null, clientId: 'c', clientSecret: 's', authorities: [{ authority: 'READ' }], scope: ['read'] },
    'portal',
  );
  assert.deepEqual(v2.authorities, ['READ']);
  assert.equal(v2.id, null);
});

void test('Member v3 and tag summary', () => {
  const m = parseMember({
    user: { id: 3, username: 'x' },
    permission: null,
    activationType: 1700000000000,
    tags: null,
    notAssigned: [1, 'g'],
  });
  assert.equal(m.permission, null);
  assert.deepEqual(m.activation, { mode: 'custom', date: 1700000000000 });
  assert.deepEqual(m.tags, []);
  assert.deepEqual(m.notAssigned, [1, 'g']);
  assert.throws(() => parseMember({ permission: 1 }), invalid);
  assert.deepEqual(parseMemberTagSummary({ name: 'a', members: 3 }), { name: 'a', members: 3 });
});

void test('v2 user, organisation, group, member, custom names', () => {
  assert.equal(parseUserV2({ id: 1, twoFactorMode: null }).twoFactorMode, null);
  const org = parseAccountV2({
    id: 1,
    name: 'acme',
    creator: null,
    branding: { gradient: true, gradientWidth: null },
  });
  assert.equal(org.branding?.gradient, true);
  assert.equal(org.creator, null);
  const g = parseGroup(
    { id: 9, name: 'g', components: [{ name: 'files', order: null }, 'chat'], portal: { id: 1 }, account: null },
    'portal',
  );
  assert.deepEqual(
    g.components.map((c) => c.name),
    ['files', 'chat'],
  );
  assert.equal(g.user?.id, 1);
  assert.equal(g.disableWidgets, null, "the spec's group response has no widgets switch: not reported");
  assert.equal(parseGroup({ id: 9, name: 'g', disableWidgets: true }, 'portal').disableWidgets, true);
  assert.throws(() => parseGroup({ name: 'g' }, 'portal'), invalid);
  assert.equal(parseCreatedGroup({ id: null, name: 'g' }, 'portal').id, null);
  const mv2 = parseMemberV2({ user: { id: 1 }, accountPermission: 16, groups: { Sales: 4, bad: 'x' } });
  assert.deepEqual({ ...mv2.groups }, { Sales: 4 });
  assert.ok(!('groups' in parseMemberV2({ user: { id: 1 } })));
  assert.deepEqual({ ...parseCustomNames({ files: 'Documents', n: null }) }, { files: 'Documents' });
});

void test('File record: folder flag, tags string, group id', () => {
  const f = parseFileRecord(
    {
      id: 7,
      contentType: '@folder',
      tags: 'a, b,,c',
      group: { id: 3, name: 'g' },
      parent: { id: 2 },
      path: [{ id: 1, name: 'root' }],
    },
    'portal',
  );
  assert.equal(f.isFolder, true);
  assert.deepEqual(f.tags, ['a', 'b', 'c']);
  assert.equal(f.groupId, 3);
  assert.equal(f.parentId, 2);
  assert.deepEqual(f.path, [{ id: 1, name: 'root' }]);
  const plain = parseFileRecord({ id: 8, contentType: 'text/plain', tags: null, group: null }, 'portal');
  assert.equal(plain.isFolder, false);
  assert.deepEqual(plain.tags, []);
  assert.throws(() => parseFileRecord({ name: 'x' }, 'portal'), invalid);
});

void test('page envelopes', () => {
  const p3 = parseItemsEnvelope(
    { items: [1, 2], currentPage: 2, totalPages: 5, pageSize: 2, totalResults: 10, nextPage: true },
    (x) => x,
    { page: 2, size: 2 },
  );
  assert.deepEqual(p3, { items: [1, 2], page: 2, pageSize: 2, hasNext: true, totalResults: 10, totalPages: 5 });
  const p2 = parsePageEnvelope({ page: [1], currentPage: 3, pageSize: 20, nextPage: false }, (x) => x, {
    page: 3,
    size: 20,
  });
  assert.equal(p2.hasNext, false);
  assert.ok(!('totalResults' in p2));
  assert.throws(() => parsePageEnvelope({ items: [] }, (x) => x, { page: 1, size: 1 }), invalid);
  assert.equal(pageFromArray([1, 2], { page: 1, size: 2 }).hasNext, true);
  assert.equal(pageFromArray([1], { page: 1, size: 2 }).hasNext, false);
});

void test('permission masks', () => {
  assert.equal(AccountPermission.SuperAdministrator, 16);
  assert.equal(GroupPermission.Standard, 4);
  assert.equal(ContentPermission.EditDelete, 8);
});
