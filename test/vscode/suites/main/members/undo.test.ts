// Undo where the change was made: a form's save, a single Disable, a bulk delete that deletes two users for good and
// a plan's apply are each undone from their summary's Undo button, and the portal (read over HTTP, not through the
// extension) is then back where it started: the deleted users re-created from their snapshots, groups and tags too.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { FormPanel } from '../../../../../src/forms/formPanel';
import type {
  AssignmentsState,
  AssignmentsValues,
} from '../../../../../src/features/members/forms/assignments/assignments.protocol';
import { derivedPlan } from '../../../../../src/engine/members/model';
import { startDemoPortal, stopDemoPortal, type DemoPortal } from '../../../support/demoPortal';
import { openForm } from '../../../support/forms';
import { portalJson } from '../../../support/portalHttp';
import { features, loadAll, nodeOf, setPageSize, type Provider, type Row } from '../../../support/tree';
import { acmeOf, showAcmeMembers } from '../../../support/membersView';
import { withUi } from '../../../support/ui';
import { waitFor } from '../../../../support/wait';

interface MemberJson {
  user: { username: string; name: string; email: string; enabled: boolean };
  tags: string[];
  permission: number | null;
}

/** Undo is clicked on the summary, and the undo's own plan is confirmed. */
const UNDO = { 'members.change.done': 'undo', 'plan.apply.confirm': true } as const;

describe('Members: every change is undone from its summary', function () {
  this.timeout(270_000);
  let p: DemoPortal;
  let members: Provider;
  const acme = () => acmeOf(p.portalId);
  const get = async <T>(path: string): Promise<{ status: number; body: T }> =>
    portalJson<T>(p.emu.url, p.token, 'GET', path);
  /** What an undo must bring back: profile, flags, tags, permission and every group's level; undefined when gone. */
  const whole = async (username: string): Promise<unknown> => {
    const v3 = await get<MemberJson>(`/v3/accounts/1/members/${encodeURIComponent(username)}`);
    if (v3.status === 404) return undefined;
    const v2 = await get<{ groups?: Record<string, number> }>(`/v2/accounts/1/members/${encodeURIComponent(username)}`);
    const groups = Object.entries(v2.body.groups ?? {}).sort(([a], [b]) => a.localeCompare(b));
    const m = v3.body;
    return [m.user.name, m.user.email, m.user.enabled, m.permission, [...m.tags].sort(), groups];
  };
  const backTo = (username: string, before: unknown) => async () =>
    JSON.stringify(await whole(username)) === JSON.stringify(before);
  const row = async (username: string): Promise<Row> => {
    const all = await loadAll(members, undefined, 'portal.members.loadMore');
    const found = all.find((r) => (r.node as { ref?: { username?: string } }).ref?.username === username);
    assert.ok(found, username);
    return found;
  };

  before(async () => {
    p = await startDemoPortal();
    members = await showAcmeMembers(p.portalId);
  });

  after(async () => {
    await setPageSize(undefined);
    for (const panel of (await features()).forms.panels()) panel.dispose();
    await stopDemoPortal(p);
  });

  it('a form save: its tags and a group level are put back', async () => {
    const before = await whole('member');
    const node = await nodeOf({ kind: 'member', portalId: p.portalId, accountId: 1, username: 'member' });
    const panel = await openForm<FormPanel<AssignmentsState, AssignmentsValues>>('portal.editMemberAssignments', node);
    const state = await panel.whenLoaded();
    const values: AssignmentsValues = {
      ...state.values,
      tags: [...state.values.tags, 'undo-me'],
      groups: state.values.groups.map((g, i) => (i === 0 ? { ...g, permission: g.permission === 16 ? 1 : 16 } : g)),
    };
    await withUi(UNDO, async (ui) => {
      await panel.handleMessage({ type: 'save', values });
      assert.notDeepEqual(await whole('member'), before, 'the save changed the member');
      await waitFor(backTo('member', before), 'the form save is undone').catch((e: unknown) => {
        const asked = ui.asked.map((a) => a.id).join(', ');
        throw new Error(`${String(e)} (asked: ${asked}; told: ${ui.told.map((t) => t.text).join(' | ')})`);
      });
    });
    panel.dispose();
  });

  it('a single Disable: the member is enabled again', async () => {
    const target = 'bruno.dubois';
    const before = await whole(target);
    await withUi(UNDO, async () => {
      await vscode.commands.executeCommand('portal.member.disable', (await row(target)).node);
      await waitFor(backTo(target, before), 'the Disable is undone');
    });
  });

  it('Show Change History… names a change in the user’s words and shows the undo plan of one not undone yet', async () => {
    // A member no earlier test changed, so the view's row is as the portal has it.
    const target = 'yara.haddad';
    // The summary's Undo is not clicked this time: the change stays in the history, not undone.
    const node = (await row(target)).node;
    await withUi({}, () => vscode.commands.executeCommand('portal.member.disable', node));
    try {
      const ui = await withUi(
        {
          'plan.history.pick': ((c: { undoable: boolean; record: { begin: { title?: string } } }) =>
            c.undoable && c.record.begin.title === `Disable ${target}`) as never,
        },
        async (u) => {
          await vscode.commands.executeCommand('portal.plan.showHistory');
          return u;
        },
      );
      const labels = ui.asked.find((a) => a.id === 'plan.history.pick')?.texts ?? [];
      assert.ok(
        labels.some((l) => l.includes(`"Disable ${target}"`)),
        `the history names the change: ${labels.join(' | ')}`,
      );
      const shown = (await features()).members.plan.store.plan;
      assert.match(shown?.plan.title ?? '', new RegExp(`^Undo "Disable ${target}"`));
      assert.deepEqual(
        shown?.plan.fieldChanges.map((c) => [c.username, c.field, c.after]),
        [[target, 'enabled', true]],
      );
    } finally {
      await portalJson(p.emu.url, p.token, 'PATCH', `/v3/accounts/1/members/${target}`, { enabled: true });
    }
  });

  it('a bulk delete that deletes two users for good: both re-created from their snapshots, with groups and tags', async () => {
    const groups = (await get<Array<{ id: number; name: string }>>('/v2/accounts/1/groups')).body;
    const engineering = groups.find((g) => g.name === 'engineering')?.id;
    const social = groups.find((g) => g.name === 'social')?.id;
    assert.ok(engineering && social);
    const names = ['undo.one', 'undo.two'];
    for (const u of names) {
      const res: { status: number; body: unknown } = await portalJson(
        p.emu.url,
        p.token,
        'POST',
        '/v3/accounts/1/members',
        {
          name: `Undo ${u}`,
          username: u,
          email: `${u}@acme.example`,
          tags: ['keep-me', u],
          assignGroups: { [String(engineering)]: 4, [String(social)]: 16 },
        },
      );
      assert.equal(res.status, 200, JSON.stringify(res.body));
    }
    (await features()).members.refresh();
    const before = await Promise.all(names.map(whole));
    const rows = await Promise.all(names.map(row));
    p.emu.resetStats();
    await withUi({ ...UNDO, 'members.bulk.confirm': true, 'members.bulk.typeCount': '2' }, async (ui) => {
      await vscode.commands.executeCommand(
        'portal.member.delete',
        rows[0]?.node,
        rows.map((r) => r.node),
      );
      for (const [i, u] of names.entries())
        await waitFor(backTo(u, before[i]), `${u} is re-created with groups and tags`);
      assert.match(ui.asked.find((q) => q.id === 'members.bulk.confirm')?.texts.join('\n') ?? '', /DELETED FOR GOOD/);
    });
    const deletes = Object.entries(p.emu.stats().byRoute).filter(([route]) => route.startsWith('DELETE /v3/'));
    assert.equal(
      deletes.reduce((n, [, c]) => n + c, 0),
      2,
      'both were deleted before the undo',
    );
  });

  it("a plan's apply: the members' values are put back", async () => {
    const targets = ['chloe.kowalski', 'dmitri.brown'];
    const before = await Promise.all(targets.map(whole));
    const read = async (u: string) => (await get<MemberJson>(`/v3/accounts/1/members/${u}`)).body;
    const now = await Promise.all(targets.map(read));
    // As the planner makes it: each change, and the member's values before it (what the journal keeps for Undo).
    const fieldChanges = now.map((m) => ({
      kind: 'field' as const,
      id: `${m.user.username}#field:tags`,
      username: m.user.username,
      row: undefined,
      field: 'tags' as const,
      before: m.tags,
      after: [...m.tags, 'applied'],
    }));
    const beforeOf = (m: MemberJson) => ({
      username: m.user.username,
      name: m.user.name,
      email: m.user.email,
      jobTitle: null,
      enabled: m.user.enabled,
      locked: false,
      accountPermission: m.permission,
      tags: m.tags,
      twoFactor: false,
      lastModified: null,
      groups: {},
    });
    const plan = derivedPlan(
      { accountId: 1, groups: [], origin: 'file', createdAt: Date.now() },
      { fieldChanges, before: new Map(now.map((m) => [m.user.username.toLowerCase(), beforeOf(m)])) },
    );
    const t = await features();
    t.members.plan.store.show(plan, acme(), undefined);
    await withUi(
      { 'plan.apply.confirm': true, 'plan.apply.done': 'undo' },
      async () => {
        await vscode.commands.executeCommand('portal.plan.apply');
        for (const [i, u] of targets.entries())
          await waitFor(backTo(u, before[i]), `${u} is back after the apply's undo`);
      },
      { allUsed: false },
    );
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
});
