import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { budgetBound, estimateMs } from '../../../../../../src/features/members/access/store/estimate';

void describe('access read estimate', () => {
  const budget = { limit: 2000, windowMs: 300_000, used: 0 };

  void it('what fits in the free budget goes at the speed of the connection', () => {
    assert.equal(estimateMs(80, budget, 50, 8), 500);
    assert.equal(budgetBound(80, budget), false);
  });

  void it('beyond the free budget every further 2,000 requests wait for a window', () => {
    // 20,003 reads + 201 pages: 2,000 at once, then ten more windows (the last one partly used).
    const eta = estimateMs(20_204, budget, 50, 8);
    assert.ok(eta >= 10 * 300_000 && eta < 10 * 300_000 + 60_000, String(eta));
    assert.equal(budgetBound(20_204, budget), true);
  });

  void it('requests already counted in the window leave less room', () => {
    assert.equal(estimateMs(10, { ...budget, used: 1995 }, 50, 8), 300_000 + 50);
  });

  void it('nothing to read takes no time', () => {
    assert.equal(estimateMs(0, budget, 50, 8), 0);
  });
});
