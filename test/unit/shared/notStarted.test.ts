// Members not started yet (never active, activation e-mail still to come) and the activity filters: one definition,
// read by the access matrix and the Members view, which leave them out unless asked to keep them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FLAG, notStarted } from '../../../src/shared/memberStates';
import { meetsActivity, describeActivity, type MemberRow } from '../../../src/shared/members';
import { visibleRows, viewWords, type MatrixView } from '../../../src/features/members/access/matrix.protocol';
import type { WireRow } from '../../../src/shared/accessRow';
import {
  checkReviewMessage,
  shows,
  type ReviewFilter,
  type ReviewRow,
} from '../../../src/features/review/core/review.protocol';

const DAY = 86_400_000;
const NOW = Date.UTC(2027, 1, 3, 10, 0);
const KEEP = { kind: 'keep', reason: '' } as const;

const wire = (name: string, lastActive: number, flags: number): WireRow => [
  name.length,
  name,
  name,
  `${name}@x.example`,
  [],
  1,
  lastActive,
  flags,
  [],
  1,
];

const member = (username: string, lastActive: number | null, activation: 'now' | 'custom' | null): MemberRow => ({
  username,
  name: username,
  email: `${username}@x.example`,
  permission: 1,
  enabled: true,
  locked: false,
  pendingUnlock: false,
  tags: [],
  lastActive,
  multipleAccounts: false,
  twoFactor: false,
  activation,
  activationDate: activation === 'custom' ? NOW + 3 * DAY : null,
  verifiedEmail: false,
  jobTitle: null,
  telephone: null,
});

void describe('members not started yet', () => {
  void it('are never active with their activation still to come; nothing else is', () => {
    assert.equal(notStarted(FLAG.pending, -1), true);
    assert.equal(notStarted(0, -1), false, 'never active, but activated: had the access');
    assert.equal(notStarted(FLAG.pending, NOW - 200 * DAY), false, 'active once');
  });

  void it('the access matrix leaves them out of inactive N days and never active, unless the view keeps them', () => {
    const rows = [
      wire('starter', -1, FLAG.pending),
      wire('idle', NOW - 200 * DAY, 0),
      wire('never', -1, 0),
      wire('recent', NOW - DAY, 0),
    ];
    const names = (v: MatrixView) => visibleRows(rows, v, NOW).map((r) => r[1]);
    assert.deepEqual(names({ inactiveDays: 90 }), ['idle', 'never']);
    assert.deepEqual(names({ inactiveDays: 90, notStarted: true }), ['idle', 'never', 'starter']);
    assert.deepEqual(names({ state: 'neverActive' }), ['never']);
    assert.deepEqual(names({ state: 'neverActive', notStarted: true }), ['never', 'starter']);
    // Other filters are not about activity: a pending member is found as pending.
    assert.deepEqual(names({ state: 'pending' }), ['starter']);
    assert.deepEqual(names({}).length, 4);
  });

  void it("the matrix export's first line says whether they were left out", () => {
    const names = { columns: [], tags: [] };
    const perm = (m: number) => String(m);
    assert.equal(viewWords({ inactiveDays: 90 }, names, perm), 'inactive 90+ days, members not started yet left out');
    assert.equal(
      viewWords({ inactiveDays: 90, notStarted: true }, names, perm),
      'inactive 90+ days, members not started yet included',
    );
    assert.equal(viewWords({ state: 'disabled' }, names, perm), 'disabled');
  });

  void it("the Members view's activity filter leaves them out the same way, and says when it keeps them", () => {
    const starter = member('starter', null, 'custom');
    const never = member('never', null, 'now');
    assert.equal(meetsActivity(starter, { inactiveDays: 90 }, NOW), false);
    assert.equal(meetsActivity(never, { inactiveDays: 90 }, NOW), true);
    assert.equal(meetsActivity(starter, { never: true }, NOW), false);
    assert.equal(meetsActivity(starter, { inactiveDays: 90, notStarted: true }, NOW), true);
    assert.equal(meetsActivity(starter, { pending: true }, NOW), true);
    assert.equal(describeActivity({ inactiveDays: 90 }), 'inactive 90+ days');
    assert.equal(
      describeActivity({ inactiveDays: 90, notStarted: true }),
      'inactive 90+ days, members not started yet included',
    );
  });

  void it("the access review's filter leaves them out the same way, with a toggle that keeps them", () => {
    const row = (identity: string, lastActive: number, flags: number): ReviewRow => ({
      key: `m:${identity}`,
      kind: 'member',
      identity,
      name: identity,
      access: '',
      detail: '',
      readAt: NOW,
      flags,
      lastActive,
    });
    const rows = [
      row('starter', -1, FLAG.pending),
      row('idle', NOW - 200 * DAY, 0),
      row('never', -1, 0),
      row('recent', NOW - DAY, 0),
    ];
    const names = (f: ReviewFilter) => rows.filter((r) => shows(r, undefined, f, NOW)).map((r) => r.identity);
    assert.deepEqual(names({ inactiveDays: 90 }), ['idle', 'never']);
    assert.deepEqual(names({ inactiveDays: 90, notStarted: true }), ['starter', 'idle', 'never']);
    assert.deepEqual(names({ state: 'neverActive' }), ['never']);
    assert.deepEqual(names({ state: 'neverActive', notStarted: true }), ['starter', 'never']);
    assert.deepEqual(names({ state: 'pending' }), ['starter']);
    assert.equal(names({}).length, 4);
    // The host checks a bulk decision with the same filter as sent from the page: the toggle passes its check.
    const sent = { type: 'decideShown', filter: { inactiveDays: 90, notStarted: true }, decision: KEEP };
    assert.deepEqual(checkReviewMessage(sent, ''), { ok: true, value: sent });
  });
});
