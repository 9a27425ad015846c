import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PortalError, parseAccount, parseSubscription, parseComponent } from '../../../../src/api';

const invalid = (e: unknown) => e instanceof PortalError && e.kind === 'invalid-response';

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
