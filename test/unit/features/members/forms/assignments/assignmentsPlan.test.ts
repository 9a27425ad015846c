import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  foreignReference,
  planAssignments,
} from '../../../../../../src/features/members/forms/assignments/assignmentsPlan';
import {
  UNKNOWN_LEVEL,
  type AssignmentsValues,
} from '../../../../../../src/features/members/forms/assignments/assignments.protocol';

const baseline: AssignmentsValues = {
  accountId: 1,
  username: 'member',
  groups: [
    { id: 101, permission: 4 },
    { id: 102, permission: 1 },
    { id: 103, permission: 0 },
    { id: 104, permission: 16 },
  ],
  accountPermission: 1,
  tags: ['a', 'b'],
  enabled: true,
  locked: false,
  assignToNewGroups: 0,
  notify: false,
};

void test('no change, no request', () => {
  assert.equal(planAssignments(baseline, { ...baseline, tags: ['b', ' a '], notify: true }).update, undefined);
});

void test('group changes go by id: rights for basic/standard, admin list, removal', () => {
  const plan = planAssignments(baseline, {
    ...baseline,
    notify: true,
    groups: [
      { id: 101, permission: 16 },
      { id: 102, permission: 0 },
      { id: 103, permission: 4 },
      { id: 104, permission: 1 },
    ],
  });
  assert.deepEqual(plan.update, {
    assignGroupsRights: { 103: 4, 104: 1 },
    assignGroupsAdmin: [101],
    removeGroups: [102],
    assignmentNotification: true,
  });
});

void test('only the changed fields are sent', () => {
  const plan = planAssignments(baseline, { ...baseline, accountPermission: 4, locked: true, tags: ['a', 'c', 'c'] });
  assert.deepEqual(plan.update, { permission: 4, lock: true, tags: ['a', 'c'] });
  assert.deepEqual(plan.summary, ['organisation permission', 'tags', 'locked']);
});

void test('the new-groups permission: admin is a flag, the rest rights, 0 unassigns', () => {
  assert.deepEqual(planAssignments(baseline, { ...baseline, assignToNewGroups: 16 }).update, {
    assignToNewGroupsAdmin: true,
  });
  assert.deepEqual(planAssignments(baseline, { ...baseline, assignToNewGroups: 4 }).update, {
    assignToNewGroupsRights: 4,
  });
  const fromAdmin = { ...baseline, assignToNewGroups: 16 as const };
  assert.deepEqual(planAssignments(fromAdmin, { ...fromAdmin, assignToNewGroups: 0 }).update, {
    assignToNewGroupsAdmin: false,
    assignToNewGroupsRights: 0,
  });
});

void test('ids of another account, member or unknown group are caught', () => {
  const state = { accountId: 1, username: 'member', groups: [{ id: 101 }, { id: 102 }] };
  assert.equal(foreignReference(state, { ...baseline, groups: [{ id: 101, permission: 1 }] }), undefined);
  assert.match(foreignReference(state, { ...baseline, accountId: 2 }) ?? '', /another account/);
  assert.match(foreignReference(state, { ...baseline, username: 'demo' }) ?? '', /another member/);
  assert.match(
    foreignReference(state, { ...baseline, groups: [{ id: 999, permission: 1 }] }) ?? '',
    /not in this account/,
  );
  assert.match(
    foreignReference(state, {
      ...baseline,
      groups: [
        { id: 101, permission: 1 },
        { id: 101, permission: 4 },
      ],
    }) ?? '',
    /twice/,
  );
});

void test('groups whose permission the portal did not say are sent only when the user picked a level; "unknown" is never sent', () => {
  const unknown: AssignmentsValues = {
    ...baseline,
    groups: baseline.groups.map((g) => ({ id: g.id, permission: UNKNOWN_LEVEL })),
  };
  assert.equal(planAssignments(unknown, unknown).update, undefined, 'nothing picked, nothing sent');
  const picked = planAssignments(unknown, {
    ...unknown,
    groups: [
      { id: 101, permission: 16 },
      { id: 102, permission: UNKNOWN_LEVEL },
      { id: 103, permission: 0 },
      { id: 104, permission: UNKNOWN_LEVEL },
    ],
  });
  assert.deepEqual(picked.update, { assignGroupsAdmin: [101], removeGroups: [103], assignmentNotification: false });
  // A known group set to "unknown" (only a forged message can) is no change either.
  assert.equal(
    planAssignments(baseline, { ...baseline, groups: [{ id: 101, permission: UNKNOWN_LEVEL }] }).update,
    undefined,
  );
});
