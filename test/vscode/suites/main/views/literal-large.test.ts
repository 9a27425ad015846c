import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { FormPanel } from '../../../../../src/forms/formPanel';
import type {
  AssignmentsState,
  AssignmentsValues,
} from '../../../../../src/features/members/forms/assignments/assignments.protocol';
import { startDemoPortal, stopDemoPortal, type DemoPortal } from '../../../support/demoPortal';
import { lastPosted, openForm, postedTypes } from '../../../support/forms';
import { portalApi } from '../../../support/extension';
import { portalJson } from '../../../support/portalHttp';
import { features, loadAll, madeByExtension, nodeOf, rows, walk, type Provider } from '../../../support/tree';
import { withUi } from '../../../support/ui';

interface GroupJson {
  id: number;
  name: string;
  friendlyName: string;
}
interface FileJson {
  id: number;
  name: string;
  size: number;
}

/** A portal that keeps to the letter of the spec, with an organisation of 500 groups and a root of 3,000 files. */
describe('A literal portal with 500 groups (large seed)', function () {
  this.timeout(120_000);
  let p: DemoPortal;
  let explorer: Provider;
  const get = async <T>(path: string): Promise<T> => {
    const r = await portalJson<T>(p.emu.url, p.token, 'GET', path);
    assert.equal(r.status, 200, `GET ${path}`);
    return r.body;
  };

  before(async () => {
    p = await startDemoPortal({ seed: 'large', profile: 'literal', large: { files: 3_000 } });
    explorer = (await features()).explorer.provider as unknown as Provider;
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const panel of (await portalApi()).testing.forms.panels()) panel.dispose();
    await stopDemoPortal(p);
  });

  it('signed in although the token endpoint refuses POST: one POST, then GET from then on', async () => {
    const stats = p.emu.stats().byRoute;
    assert.equal(stats['POST /oauth/token'], 1, 'the refused POST is not tried again');
    // The sign-in's two grants by GET, and the suite's own token.
    assert.equal(stats['GET /oauth/token'], 3);
    assert.ok(
      vscode.extensions.all.length > 0 && (await portalApi()).registry.get(p.portalId)?.client,
      'the portal is signed in',
    );
  });

  it('the Explorer lists every group exactly once, in one request, with no "Load more…" after the last', async () => {
    const portalGroups = await get<GroupJson[]>('/v2/accounts/1/groups?page=1&size=50');
    assert.equal(portalGroups.length, 500, 'the literal portal answers the whole list whatever the page size');
    const bigcorp = await walk(explorer, p.portalId, ['BigCorp International']);
    p.emu.resetStats();
    const listed = await loadAll(explorer, bigcorp.node, 'portal.explorer.loadMore');
    assert.equal(p.emu.stats().byRoute['GET /v2/accounts/:account/groups'], 1, 'one request, and no page after it');
    assert.equal(listed.length, 500);
    assert.equal(new Set(listed.map((r) => r.id)).size, 500, 'no group twice');
    assert.deepEqual(
      listed.map((r) => r.label),
      portalGroups.map((g) => g.friendlyName),
    );
  });

  it('Edit Assignments loads all 500 groups and saves', async () => {
    // The member's row, found by the portal's search (the organisation has 20,003 members).
    const t = await features();
    t.members.show(
      (
        (await nodeOf({ kind: 'account', portalId: p.portalId, accountId: 1 })) as {
          ref: Parameters<typeof t.members.show>[0];
        }
      ).ref,
    );
    await withUi({ 'members.search': 'member@bigcorp.example' }, () =>
      vscode.commands.executeCommand('portal.members.search'),
    );
    const row = (await rows(t.members.provider as unknown as Provider)).find((r) =>
      r.description.startsWith('member · '),
    );
    await vscode.commands.executeCommand('portal.members.clearFilter');
    assert.ok(row, 'the member is found');
    const panel = await openForm<FormPanel<AssignmentsState, AssignmentsValues>>(
      'portal.editMemberAssignments',
      row.node,
    );
    const state = await panel.whenLoaded();
    assert.equal(state.groups.length, 500);
    assert.equal(state.groupsTruncated, false);
    assert.equal(new Set(state.groups.map((g) => g.id)).size, 500);
    const target = state.groups.find((g) => g.name === 'group-0250');
    assert.ok(target);
    const values: AssignmentsValues = {
      ...state.values,
      groups: state.values.groups.map((g) => (g.id === target.id ? { ...g, permission: 16 } : g)),
    };
    await panel.handleMessage({ type: 'save', values });
    assert.equal(
      lastPosted<{ message: string }>(panel, 'saved')?.message,
      'Saved: 1 group assignment.',
      postedTypes(panel).join(),
    );
    const v2 = await get<{ groups: Record<string, number> }>('/v2/accounts/1/members/member');
    assert.deepEqual(v2.groups, { bulk: 4, 'group-0250': 16 });
  });

  it('a record deep in a 3,000-file root renders from what the Explorer knew, saying so, and an unreported size as such', async () => {
    const bulk = (await get<GroupJson[]>('/v2/accounts/1/groups')).find((g) => g.name === 'bulk');
    assert.ok(bulk);
    // Past the rows a lookup reads through (2,000): the listing cannot find it in time.
    const far = (await get<{ page: FileJson[] }>(`/v2/accounts/1/groups/${bulk.id}/files?page=25&size=100`)).page.find(
      (f) => f.size > 0,
    );
    assert.ok(far);
    const uri = vscode.Uri.parse(
      `portal://${p.portalId}/accounts/1/groups/${bulk.id}/files/${far.id}/${encodeURIComponent(`${far.name} (record).md`)}`,
    ).with({ query: new URLSearchParams({ g: 'Bulk files', f: '' }).toString() });
    p.emu.resetStats();
    const text = (await vscode.workspace.openTextDocument(await madeByExtension(uri))).getText();
    assert.match(
      text,
      /^> The portal offers no read of a single file record, and its folder is too long to look through/m,
    );
    const escaped = far.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    assert.match(text, new RegExp(`\\*\\*Path:\\*\\* Bulk files / ${escaped}$`, 'm'));
    assert.match(text, /\*\*Size:\*\* size not reported$/m, 'the row did not say, so neither does the document');
    assert.doesNotMatch(text, /0 bytes/);
    assert.ok(
      (p.emu.stats().byRoute['GET /v2/accounts/:account/groups/:group/files'] ?? 0) <= 20,
      'the lookup is bounded',
    );
  });
});
