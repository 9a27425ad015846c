// Every write on members changes rows the Explorer shows (a group's member count, the organisation's member figure);
// each is read again after the write, and the title bar's Refresh re-reads the whole view at every expanded level.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { FormPanel } from '../../../../../src/forms/formPanel';
import type {
  AssignmentsState,
  AssignmentsValues,
} from '../../../../../src/features/members/forms/assignments/assignments.protocol';
import type { MemberFormState, MemberValues } from '../../../../../src/features/members/forms/member.protocol';
import { openForm, useFormsFixture, type FormsFixture } from '../../../support/forms';
import { portalJson } from '../../../support/portalHttp';
import { byLabel, features, nodeOf, rows, tooltipOf, walk, type Provider } from '../../../support/tree';
import { withUi } from '../../../support/ui';
import { waitFor } from '../../../../support/wait';

interface GroupJson {
  id: number;
  name: string;
  friendlyName: string;
  members: number;
}
interface MemberV2Json {
  groups: Record<string, number>;
}

describe('Views stay true after writes', function () {
  this.timeout(180_000);
  let f: FormsFixture;
  useFormsFixture((x) => (f = x));

  const explorer = async (): Promise<Provider> => (await features()).explorer.provider as unknown as Provider;
  /** What the portal says a group's member count is. */
  const portalCount = async (name: string): Promise<number> => {
    const groups = await f.get<GroupJson[]>(`/v2/accounts/${f.acme}/groups`);
    const g = groups.find((x) => x.name === name);
    assert.ok(g, `group ${name}`);
    return g.members;
  };
  /** The count the Explorer's group row says, as VS Code would draw it now. */
  const shownCount = async (friendlyName: string): Promise<number> => {
    const acme = await walk(await explorer(), f.portalId, ['Acme Corporation']);
    const row = byLabel(await rows(await explorer(), acme.node), friendlyName);
    const m = /^(\d[\d,]*) members?/.exec(row.description);
    assert.ok(m, `a member count in "${row.description}"`);
    return Number(m[1]?.replace(/,/g, ''));
  };
  const engineeringName = async (): Promise<string> =>
    (await f.get<GroupJson[]>(`/v2/accounts/${f.acme}/groups`)).find((g) => g.name === 'engineering')?.friendlyName ??
    'Engineering';
  /** The organisation's member figure in its tooltip ("Members: 12 of 50"). */
  const shownMembers = async (): Promise<string> => {
    const portal = await walk(await explorer(), f.portalId, []);
    const acme = byLabel(await rows(await explorer(), portal.node), 'Acme Corporation');
    return /Members: [\d,]+/.exec(await tooltipOf(await explorer(), acme))?.[0] ?? '(none)';
  };
  const membersOfAcme = async (): Promise<Array<{ username: string }>> =>
    (
      await f.get<{ items: Array<{ user: { username: string } }> }>(`/v3/accounts/${f.acme}/members?size=1000`)
    ).items.map((m) => m.user);
  /**
   * The view keeps its rows on screen while a reload is on the way, then redraws: what it shows settles to the
   * portal's value (bounded), or the assertion says what it kept showing.
   */
  const settles = async <T>(shown: () => Promise<T>, wanted: T, what: string): Promise<void> => {
    let last: T | undefined;
    await waitFor(async () => (last = await shown()) === wanted, what).catch(() => undefined);
    assert.equal(last, wanted, what);
  };
  const portalMembers = async (): Promise<string> => {
    const s = await f.get<{ membersUsed: number }>(`/v3/accounts/${f.acme}/subscription`);
    return `Members: ${s.membersUsed}`;
  };

  it('a single Edit Assignments save shows the group row with the count the portal now has', async () => {
    const name = await engineeringName();
    const before = await shownCount(name);
    assert.equal(before, await portalCount('engineering'), 'the row starts true');
    const panel = await openForm<FormPanel<AssignmentsState, AssignmentsValues>>(
      'portal.editMemberAssignments',
      await nodeOf({ kind: 'member', portalId: f.portalId, accountId: f.acme, username: 'member' }),
    );
    const state = await panel.whenLoaded();
    const id = state.groups.find((g) => g.name === 'engineering')?.id;
    const was = state.values.groups.find((g) => g.id === id)?.permission ?? 0;
    await panel.handleMessage({
      type: 'save',
      values: {
        ...state.values,
        groups: state.values.groups.map((g) => (g.id === id ? { ...g, permission: was === 0 ? 4 : 0 } : g)),
      },
    });
    const after = await portalCount('engineering');
    assert.notEqual(after, before, 'the save changed the portal');
    await settles(() => shownCount(name), after, 'the Explorer shows the new count');
  });

  it('a new member and a removal update the group counts and the organisation figure', async () => {
    const name = await engineeringName();
    await shownCount(name);
    await shownMembers(); // the tooltip's figure is fetched and kept
    const panel = await openForm<FormPanel<MemberFormState, MemberValues>>(
      'portal.createMember',
      await nodeOf({ kind: 'account', portalId: f.portalId, accountId: f.acme }),
    );
    const state = await panel.whenLoaded();
    await panel.handleMessage({
      type: 'save',
      values: {
        ...state.values,
        username: 'fresh.hire',
        name: 'Fresh Hire',
        email: 'fresh.hire@acme.example',
        groupsMode: 'chosen',
        groups: [{ id: f.groups.engineering ?? 0, permission: 4 }],
      },
    });
    const v2 = await f.get<MemberV2Json>(`/v2/accounts/${f.acme}/members/fresh.hire`);
    assert.deepEqual(v2.groups, { engineering: 4 }, 'the member was made');
    await settles(() => shownCount(name), await portalCount('engineering'), 'group count after a new member');
    await settles(() => shownMembers(), await portalMembers(), 'organisation figure after a new member');

    // The row's command, as the context menu runs it.
    // The new member's row appears once the Members view's reload is in; its own command removes it.
    let row: unknown;
    await waitFor(async () => {
      row = await nodeOf({ kind: 'member', portalId: f.portalId, accountId: f.acme, username: 'fresh.hire' }).catch(
        () => undefined,
      );
      return row !== undefined;
    }, 'the new member has a row in the Members view');
    await withUi({ 'member.delete.confirm': true, 'member.delete.typeUsername': 'fresh.hire' }, async () => {
      await vscode.commands.executeCommand('portal.member.delete', row);
    });
    await settles(() => shownCount(name), await portalCount('engineering'), 'group count after a removal');
    await settles(() => shownMembers(), await portalMembers(), 'organisation figure after a removal');
  });

  it('a bulk edit of a group permission updates the group count', async () => {
    const name = await engineeringName();
    await shownCount(name);
    const members = await membersOfAcme();
    const notIn: string[] = [];
    for (const m of members) {
      const v2 = await f.get<MemberV2Json>(`/v2/accounts/${f.acme}/members/${encodeURIComponent(m.username)}`);
      if (!('engineering' in v2.groups)) notIn.push(m.username);
      if (notIn.length === 2) break;
    }
    assert.equal(notIn.length, 2, 'two members outside Engineering');
    const nodes = await Promise.all(
      notIn.map((username) => nodeOf({ kind: 'member', portalId: f.portalId, accountId: f.acme, username })),
    );
    await withUi(
      {
        'permission.group': (v: unknown) =>
          typeof v === 'object' && v !== null && (v as { name?: string }).name === 'engineering',
        'permission.level': (v: unknown) => v === 4,
        'members.bulk.confirm': true,
      },
      async () => {
        await vscode.commands.executeCommand('portal.changeMemberGroupPermission', nodes[0], nodes);
      },
      { allUsed: false },
    );
    const after = await portalCount('engineering');
    await settles(() => shownCount(name), after, 'the Explorer shows the count after the bulk edit');
  });

  it("the title bar's Refresh re-reads every expanded level, whatever row has the focus", async () => {
    const name = await engineeringName();
    const before = await shownCount(name);
    const acme = await walk(await explorer(), f.portalId, ['Acme Corporation']);
    const engineering = byLabel(await rows(await explorer(), acme.node), name);
    await rows(await explorer(), engineering.node); // the group is expanded: its files are loaded
    // Someone else adds a member to Engineering on the portal.
    const members = await membersOfAcme();
    let outsider: string | undefined;
    for (const m of members) {
      const v2 = await f.get<MemberV2Json>(`/v2/accounts/${f.acme}/members/${encodeURIComponent(m.username)}`);
      if (!('engineering' in v2.groups)) {
        outsider = m.username;
        break;
      }
    }
    assert.ok(outsider, 'a member outside Engineering');
    const patched = await portalJson(
      f.emu.url,
      f.token,
      'PATCH',
      `/v3/accounts/${f.acme}/members/${encodeURIComponent(outsider)}`,
      { assignGroupsRights: { [String(f.groups.engineering)]: 4 } },
    );
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.equal(await portalCount('engineering'), before + 1);
    // VS Code hands a title-bar action the focused row: here, the expanded group.
    await vscode.commands.executeCommand('portal.explorer.refresh', engineering.node);
    await settles(() => shownCount(name), before + 1, 'the group row was read again too');
  });
});
