import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PortalError, parseApplication, parseApplicationV2 } from '../../../../src/api';

const invalid = (e: unknown) => e instanceof PortalError && e.kind === 'invalid-response';

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
