// The access matrix's export names, read age and column widths: pure parts of the page and the host.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { exportFileName } from '../../../../../src/features/members/access/exportName';
import { statusWords, type MatrixProgress } from '../../../../../src/features/members/access/matrix.protocol';
import {
  DEFAULT_WIDTHS,
  MAX_WIDTH,
  MIN_WIDTH,
  leftWidth,
  resizeColumn,
  widthsOf,
} from '../../../../../src/features/members/access/matrixColumns.protocol';
import { untilRelativeTimeChanges } from '../../../../../src/shared/format';

const NOW = new Date(2027, 1, 3, 10, 12).getTime();

void describe('access export names', () => {
  const parts = { organisation: 'Acme Corporation', tags: ['left-2027'], now: NOW };

  void it('carry the kind, whose, the filters and the day', () => {
    assert.equal(exportFileName('access', {}, parts), 'access-Acme-Corporation-2027-02-03.csv');
    assert.equal(
      exportFileName('access', { inactiveDays: 90 }, parts),
      'access-Acme-Corporation-inactive-90d-2027-02-03.csv',
    );
    assert.equal(
      exportFileName('group-members', { group: 0, inactiveDays: 90 }, { ...parts, group: 'Engineering' }),
      'group-members-Engineering-Acme-Corporation-inactive-90d-2027-02-03.csv',
    );
    assert.equal(
      exportFileName(
        'access',
        { level: 3, state: 'neverActive', notStarted: true, permission: 16, tag: 0, text: 'ann' },
        parts,
      ),
      'access-Acme-Corporation-administrator-never-active-with-not-started-super-administrator-tag-left-2027-matching-ann-2027-02-03.csv',
    );
  });

  void it('differ between two views, and hold no path or odd characters from portal names', () => {
    const a = exportFileName('access', { inactiveDays: 90 }, parts);
    const b = exportFileName('access', { state: 'disabled' }, parts);
    assert.notEqual(a, b);
    const odd = exportFileName('group-members', { group: 0 }, { ...parts, group: '../Ré/se*arch\u202e' });
    assert.match(odd, /^group-members-Re-se-arch-Acme-Corporation-2027-02-03\.csv$/);
  });
});

void describe('the read age', () => {
  const progress: MatrixProgress = {
    state: 'done',
    read: 36,
    total: 36,
    remaining: 0,
    etaMs: undefined,
    oldestReadAt: NOW,
    failed: 0,
    message: '',
  };

  void it('is told as of the time given, so it keeps counting', () => {
    assert.equal(statusWords(progress, NOW + 2_000), '36 of 36 members read · oldest read 2 seconds ago');
    assert.equal(statusWords(progress, NOW + 125_000), '36 of 36 members read · oldest read 2 minutes ago');
    assert.equal(
      statusWords({ ...progress, state: 'reading', remaining: 3, etaMs: 4000 }, NOW + 9_000).includes('oldest'),
      false,
    );
  });

  void it('is told again when its words change, not before', () => {
    assert.equal(untilRelativeTimeChanges(2_000), 500);
    assert.equal(untilRelativeTimeChanges(2_400), 100);
    // 2 minutes 5 seconds: "2 minutes ago" until 2:59.5.
    assert.equal(untilRelativeTimeChanges(125_000), 54_500);
    assert.equal(untilRelativeTimeChanges(2 * 3_600_000), 3_599_500);
    for (const age of [0, 499, 500, 59_700, 3_599_600, 5 * 86_400_000]) {
      const wait = untilRelativeTimeChanges(age);
      assert.ok(wait > 0 && wait <= 86_400_000, `${age}: ${wait}`);
    }
  });
});

void describe('matrix column widths', () => {
  void it('a column widens or narrows within bounds; the others stay', () => {
    const wider = resizeColumn(DEFAULT_WIDTHS, 'state', 260.4);
    assert.equal(wider.state, 260);
    assert.equal(wider.perm, DEFAULT_WIDTHS.perm);
    assert.equal(leftWidth(wider), leftWidth(DEFAULT_WIDTHS) + 150);
    assert.equal(resizeColumn(DEFAULT_WIDTHS, 'group', 3).group, MIN_WIDTH);
    assert.equal(resizeColumn(DEFAULT_WIDTHS, 'group', 1e9).group, MAX_WIDTH);
    assert.equal(resizeColumn(DEFAULT_WIDTHS, 'group', Number.NaN).group, DEFAULT_WIDTHS.group);
  });

  void it('widths kept by the page are read back checked', () => {
    assert.deepEqual(widthsOf(undefined), DEFAULT_WIDTHS);
    assert.deepEqual(widthsOf({ state: 300, group: 'x', perm: 5 }), { ...DEFAULT_WIDTHS, state: 300 });
  });
});
