import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  PortalError,
  parseUserV2,
  parseAccountV2,
  parseGroup,
  parseCreatedGroup,
  parseMemberV2,
  parseCustomNames,
} from '../../../../src/api';

const invalid = (e: unknown) => e instanceof PortalError && e.kind === 'invalid-response';

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
