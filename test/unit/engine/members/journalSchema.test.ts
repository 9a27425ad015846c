// The journal's schema is the gate a resume and an undo pass through: a body the engine sends that the schema does not
// know makes the whole journal unreadable, and the change can then be neither resumed nor undone.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { checkJournalLine } from '../../../../src/engine/members/journalSchema';
import type { MemberCreate, MemberUpdate } from '../../../../src/api';

function begin(requests: unknown[]): string {
  return JSON.stringify({
    type: 'begin',
    applyId: '01795779965452-b3220c9d',
    kind: 'members',
    accountId: 1,
    portalId: 'p1',
    origin: 'form',
    startedAt: 1,
    title: 'Edit the assignments of Mia Member',
    work: [
      {
        seq: 0,
        username: 'member',
        action: 'update',
        changeIds: [],
        before: null,
        after: null,
        requests,
        groupNames: {},
        permanent: false,
      },
    ],
  });
}

// Every field of the bodies but the password, which never reaches a journal.
const update: Required<Omit<MemberUpdate, 'password'>> = {
  tags: ['a'],
  permission: 4,
  rights: 4,
  enabled: true,
  lock: false,
  disableTwoFactorAuthentication: true,
  assignmentNotification: false,
  activation: { date: 2, message: 'welcome' },
  assignToAllGroupsWithRights: 1,
  assignToAllGroupsWithAdmin: false,
  assignGroupsRights: { '3': 4 },
  assignGroupsAdmin: [5],
  removeGroups: [6],
  assignToNewGroupsRights: 1,
  assignToNewGroupsAdmin: false,
};
const create: Required<Omit<MemberCreate, 'password'>> = {
  name: 'Sam Starter',
  username: 'sam.starter',
  email: 'sam@acme.example',
  phone: '+1 555',
  realName: 'Sam Starter',
  enabled: true,
  tags: ['new'],
  rights: 1,
  admin: false,
  assignToNewGroupsPermission: 1,
  assignGroups: { '3': 4 },
  assignToAllGroupsWithRights: 1,
  assignToAllGroupsWithAdmin: false,
  assignGroupsRights: { '3': 4 },
  assignGroupsAdmin: [5],
};

void describe('the journal schema', () => {
  void test('takes every field of a member update and create the engine can send, but a password', () => {
    assert.ok(checkJournalLine(begin([{ method: 'v3.update', body: update }]), false));
    assert.ok(checkJournalLine(begin([{ method: 'v3.create', body: create }]), false));
    assert.throws(
      () => checkJournalLine(begin([{ method: 'v3.update', body: { ...update, password: 'secret' } }]), false),
      /password/,
    );
  });
});
