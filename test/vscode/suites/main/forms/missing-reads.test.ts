import assert from 'node:assert/strict';
import type { FormPanel } from '../../../../../src/forms/formPanel';
import type { ApplicationState } from '../../../../../src/features/applications/application.protocol';
import type {
  AssignmentsState,
  AssignmentsValues,
} from '../../../../../src/features/members/forms/assignments/assignments.protocol';
import type { GroupState } from '../../../../../src/features/explorer/forms/group.protocol';
import type { MemberFormState, MemberValues } from '../../../../../src/features/members/forms/member.protocol';
import type { OverviewState } from '../../../../../src/features/explorer/forms/overview.protocol';
import { lastPosted, openForm, postedTypes, useFormsFixture, type FormsFixture } from '../../../support/forms';
import { nodeOf } from '../../../support/tree';

interface GroupJson {
  id: number;
  name: string;
  members: number;
}
interface MemberV3Json {
  user: { telephone: string | null };
}

/**
 * Every supporting read the forms use, taken away from a portal that also keeps to the letter of the spec (so it has
 * no single application read either): each form still opens, shows what it could read, and says what it lacks.
 */
const MISSING = [
  'v2.organisation.get',
  'v3.account.get',
  'v3.subscription.get',
  'v3.components.list',
  'v2.custom',
  'v3.member-tags.list',
  'v2.member.get',
] as const;

describe('Forms on a portal missing their supporting reads (literal, and without the reads the forms only decorate with)', function () {
  this.timeout(180_000);
  let f: FormsFixture;
  useFormsFixture((x) => (f = x), { profile: 'literal', missingReads: [...MISSING] });

  const acme = () => ({ portalId: f.portalId, accountId: f.acme });
  const open = async <S>(command: string, row: unknown): Promise<{ panel: FormPanel<S>; state: S }> => {
    const panel = await openForm<FormPanel<S>>(command, row);
    return { panel, state: await panel.whenLoaded() };
  };
  /** The notices as one text, one per line. */
  const said = (state: { notices: readonly string[] }) => state.notices.join('\n');

  it('every form opens and says, for each read the portal did not answer, what is not shown', async () => {
    const group = await open<GroupState>(
      'portal.editGroup',
      await nodeOf({ kind: 'group', ...acme(), groupId: f.groups.engineering ?? 0 }),
    );
    assert.equal(group.state.values.name, 'engineering', 'the group itself is read');
    assert.equal(group.state.accountName, '');
    assert.match(
      said(group.state),
      /^The portal did not answer the organisation read; the organisation's name is not shown\.$/m,
    );
    assert.match(said(group.state), /did not answer the component list; every component is offered/);
    assert.match(said(group.state), /did not answer the custom names read/);
    assert.equal(group.state.notices.length, 3);

    const newGroup = await open<GroupState>('portal.createGroup', await nodeOf({ kind: 'account', ...acme() }));
    assert.equal(newGroup.state.mode, 'create');
    assert.equal(newGroup.state.notices.length, 3);

    const member = await open<MemberFormState>(
      'portal.editMember',
      await nodeOf({ kind: 'member', ...acme(), username: 'member' }),
    );
    assert.match(said(member.state), /did not answer the organisation read/);
    assert.match(said(member.state), /did not answer the tag list; the organisation's tags are not suggested/);
    assert.match(
      said(member.state),
      /did not answer the member's v2 read; job title, organisation and address are not shown/,
    );
    const newMember = await open<MemberFormState>('portal.createMember', await nodeOf({ kind: 'account', ...acme() }));
    assert.equal(newMember.state.notices.length, 2, said(newMember.state));

    const assignments = await open<AssignmentsState>(
      'portal.editMemberAssignments',
      await nodeOf({ kind: 'member', ...acme(), username: 'member' }),
    );
    assert.match(
      said(assignments.state),
      /the member's permission in each group is unknown; only the groups you change are sent/,
    );
    assert.equal(assignments.state.notices.length, 3, said(assignments.state));

    const overview = await open<OverviewState>('portal.accountOverview', await nodeOf({ kind: 'account', ...acme() }));
    assert.equal(overview.state.friendlyName, 'Acme Corporation', 'the organisation comes from the sign-in details');
    assert.equal(overview.state.subscription, null);
    assert.ok(
      overview.state.components.some((c) => c.name === 'files'),
      'components by name, from the sign-in details',
    );
    assert.match(
      said(overview.state),
      /did not answer the organisation read; what is shown comes from your sign-in details/,
    );
    assert.match(said(overview.state), /did not answer the subscription read; usage and limits are not shown/);
    assert.equal(overview.state.notices.length, 4, said(overview.state));

    const apps = await f.get<Array<{ clientId: string; name: string }>>('/v3/applications');
    const sync = apps.find((a) => a.name === 'Portal Sync (laptop)');
    assert.ok(sync);
    const application = await open<ApplicationState>(
      'portal.rotateApplicationSecret',
      await nodeOf({ kind: 'application', portalId: f.portalId, clientId: sync.clientId }),
    );
    assert.equal(application.state.mode === 'rotate' && application.state.application.name, 'Portal Sync (laptop)');
    assert.match(
      said(application.state),
      /did not answer the application read; the details shown come from the application list/,
    );
  });

  it('Edit Assignments without the v2 member read shows every group as unknown and sends only the group the user changed', async () => {
    const { panel, state } = await open<AssignmentsState>(
      'portal.editMemberAssignments',
      await nodeOf({ kind: 'member', ...acme(), username: 'member' }),
    );
    assert.equal(state.groupsKnown, false);
    assert.deepEqual([...new Set(state.values.groups.map((g) => g.permission))], [-1], 'every group unknown');
    const before = await f.get<GroupJson[]>(`/v2/accounts/${f.acme}/groups`);
    const values: AssignmentsValues = {
      ...state.values,
      groups: state.values.groups.map((g) => (g.id === f.groups.handbook ? { ...g, permission: 4 } : g)),
    };
    await panel.handleMessage({ type: 'save', values });
    assert.equal(
      lastPosted<{ message: string }>(panel, 'saved')?.message,
      'Saved: 1 group assignment.',
      postedTypes(panel).join(),
    );
    const after = await f.get<GroupJson[]>(`/v2/accounts/${f.acme}/groups`);
    const count = (list: GroupJson[], name: string) => list.find((g) => g.name === name)?.members;
    assert.equal(count(after, 'handbook'), (count(before, 'handbook') ?? 0) + 1, 'the member joined the group picked');
    for (const name of ['engineering', 'marketing', 'social'])
      assert.equal(count(after, name), count(before, name), `${name} was left as it was`);
  });

  it('Edit Member without the v2 read starts the v2-only fields empty, marks them, and sends only what the user fills in', async () => {
    const { panel, state } = await open<MemberFormState>(
      'portal.editMember',
      await nodeOf({ kind: 'member', ...acme(), username: 'member' }),
    );
    assert.equal(state.profileKnown, false);
    assert.equal(state.values.jobTitle, '');
    const v3 = await f.get<MemberV3Json>(`/v3/accounts/${f.acme}/members/member`);
    assert.equal(state.values.phone, v3.user.telephone ?? '', 'the phone comes from v3');
    const values: MemberValues = { ...state.values, jobTitle: 'Technical writer' };
    await panel.handleMessage({ type: 'save', values });
    assert.equal(lastPosted<{ message: string }>(panel, 'saved')?.message, 'Saved.', postedTypes(panel).join());
  });
});
