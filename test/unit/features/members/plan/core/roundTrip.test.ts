// Export, then plan with no edit, plans nothing and shows no error, on any portal data: members generated with
// fast-check (spaces, tabs and CR around values, formula-looking text, e-mails included, e-mails the portal holds
// that are no e-mail address, bidi text, decomposed accents, very long values, nulls where the spec allows them) are
// seeded into a real emulator, exported, checked as the Problems panel checks a file before any plan, and planned.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { checkFile } from '../../../../../../src/features/members/plan/core/file/diagnose';
import { parseMembersFile } from '../../../../../../src/features/members/plan/core/file/membersFile';
import { allChanges } from '../../../../../../src/features/members/plan/core/model';
import { makePlan } from '../../../../../../src/features/members/plan/core/planner';
import { readPortalState } from '../../../../../../src/features/members/plan/core/portalState';
import { exportText } from './helpers';
import { acmeUsers, withSeededPortal } from './seeded';

const pieces = [
  ' ',
  '\t',
  '\r',
  '\n',
  '\u00a0',
  '=',
  '+',
  '-',
  '@',
  "'",
  '"',
  ',',
  ';',
  '|',
  'a',
  'Z',
  '7',
  'e\u0301',
  'é',
  '\u202e',
  '\u2067',
  'مرحبا',
  '名',
];
const text = (maxLength: number) => fc.array(fc.constantFrom(...pieces), { maxLength }).map((parts) => parts.join(''));
const long = fc.nat({ max: 600 }).map((n) => 'L'.repeat(n));

interface Generated {
  name: string;
  email: string;
  jobTitle: string | null;
  tags: string[];
  permission: number | null;
}

const member: fc.Arbitrary<Generated> = fc.record({
  name: fc.oneof(text(12), long),
  // Unique per member (the portal's e-mails are; the index is added), formula-looking or padded at will, or one the
  // portal holds although it is no e-mail address (an import from elsewhere, an older portal's rules).
  email: fc.oneof(
    fc.tuple(text(3), text(3)).map(([a, b]) => `${a}x@acme.example${b}`),
    fc.constantFrom('@SUM(1)', '=1+1', '+cmd', 'not-an-address', '-x@'),
  ),
  jobTitle: fc.option(fc.oneof(text(12), long), { nil: null }),
  tags: fc.array(
    text(6).map((t) => t.replace(/,/g, '')),
    { maxLength: 4 },
  ),
  permission: fc.constantFrom(null, 1, 4, 16),
});

void describe('export, then plan with no edit', () => {
  void test('plans nothing and skips no row, on generated portal data', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(member, { minLength: 1, maxLength: 6 }), async (generated) => {
        await withSeededPortal(
          (store) => {
            const users = acmeUsers(store);
            const memberships = store.snapshot().memberships;
            generated.forEach((g, i) => {
              const target = users[i];
              const user = target ? store.users.get(target.userId) : undefined;
              if (!user) return;
              const email = g.email.includes('@acme.example') ? `${i}${g.email}` : `${g.email}${i}`;
              Object.assign(user, { name: g.name, email, jobTitle: g.jobTitle });
              const m = memberships.find(
                (x) => x.userId === user.id && store.accounts.get(x.accountId)?.name === 'acme',
              );
              if (m) Object.assign(m, { tags: g.tags, permission: g.permission });
            });
          },
          async (p) => {
            const text = await exportText(p);
            const file = parseMembersFile(text);
            const live = checkFile(file).problems.filter((x) => x.severity === 'error');
            assert.deepEqual(
              live.map((x) => [x.code, x.args]),
              [],
              'no error before a plan',
            );
            const plan = makePlan(file, await readPortalState(p.client, p.acme, file));
            assert.deepEqual(
              allChanges(plan).map((c) => c.id),
              [],
            );
            assert.deepEqual(plan.skipped, []);
            assert.deepEqual(plan.conflicts, []);
          },
        );
      }),
      { numRuns: 25, seed: 4242, endOnFailure: true },
    );
  });
});
