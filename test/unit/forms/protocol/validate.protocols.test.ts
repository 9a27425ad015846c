import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applicationCommands } from '../../../../src/features/applications/application.protocol';
import { groupCommands } from '../../../../src/features/explorer/forms/group.protocol';
import { memberCommands } from '../../../../src/features/members/forms/member.protocol';
import { NO_EXTRAS } from '../../../../src/features/members/forms/memberExtras.protocol';
import { overviewCommands } from '../../../../src/features/explorer/forms/overview.protocol';
import type { Check } from '../../../../src/forms/protocol/validate';

const forms: Array<[string, Check<unknown>, unknown]> = [
  [
    'application',
    applicationCommands,
    {
      name: 'Bot',
      description: '',
      platform: 'LINUX',
      deviceType: 'Other',
      deviceModel: '',
      deviceOs: '',
      appVersion: '',
      bundleId: '',
    },
  ],
  [
    'group',
    groupCommands,
    {
      accountId: 1,
      groupId: 0,
      name: 'g',
      friendlyName: 'G',
      components: ['files'],
      chat: true,
      comments: true,
      widgets: true,
      accordionWidgets: true,
      headerColor: '',
      textColor: '#fff',
    },
  ],
  [
    'member',
    memberCommands,
    {
      accountId: 1,
      username: 'u',
      name: 'U',
      email: 'u@x.example',
      phone: '',
      password: '',
      realName: '',
      jobTitle: '',
      organisation: '',
      address: '',
      enabled: true,
      accountPermission: 1,
      assignToNewGroups: 0,
      tags: [],
      ...NO_EXTRAS,
    },
  ],
  ['overview', overviewCommands, { accountId: 1, friendlyName: 'A', name: 'a', locale: 'en' }],
];

for (const [name, check, values] of forms) {
  void test(`${name}: the common commands and a well-formed save pass; anything else is refused`, () => {
    for (const ok of [{ type: 'ready' }, { type: 'reload' }, { type: 'close' }, { type: 'save', values }]) {
      assert.ok(check(ok, '').ok, `${name} refused ${JSON.stringify(ok)}`);
    }
    const bad: unknown[] = [
      { type: 'save', values: { ...(values as object), extra: true } },
      { type: 'save' },
      { type: 'ready', now: true },
      { type: 'delete' },
      { type: 'save', values: null },
    ];
    for (const b of bad) assert.equal(check(b, '').ok, false, `${name} accepted ${JSON.stringify(b)}`);
  });
}

void test('application: copy names only the two credentials, and storing them needs the explicit "yes"', () => {
  assert.ok(applicationCommands({ type: 'copy', what: 'clientSecret' }, '').ok);
  assert.equal(applicationCommands({ type: 'copy', what: 'password' }, '').ok, false);
  assert.ok(applicationCommands({ type: 'useCredentials', confirm: 'yes' }, '').ok);
  assert.equal(applicationCommands({ type: 'useCredentials' }, '').ok, false);
  assert.equal(
    applicationCommands({ type: 'copy', what: 'clientSecret', value: 'x' }, '').ok,
    false,
    'a secret never travels from the webview',
  );
});
