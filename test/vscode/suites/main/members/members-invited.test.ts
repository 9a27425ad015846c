// The Members view's pending invitations (*Invited*), its members' sign-ins and the filter "never signed in since
// invited/created", on both emulator profiles: read from the access store as the matrix reads them (within the budget,
// kept), and on a literal portal (no such endpoints) one plain line while the members still show.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { isLiteral, PROFILES, startDemoPortal, stopDemoPortal, type DemoPortal } from '../../../support/demoPortal';
import { portalJson } from '../../../support/portalHttp';
import {
  byLabel,
  features,
  loadAll,
  rows,
  setPageSize,
  tooltipOf,
  type Provider,
  type Testing,
} from '../../../support/tree';
import { withUi } from '../../../support/ui';

interface MemberJson {
  user: { username: string; name: string; lastActive?: number | null };
}
interface AuditJson {
  user: { username: string } | null;
}

const filter = (choices: readonly string[]) =>
  withUi({ 'members.activity': (v: string) => choices.includes(v) }, () =>
    vscode.commands.executeCommand('portal.members.filterActivity'),
  );
const loadMore = 'portal.members.loadMore';

for (const profile of PROFILES)
  describe(`Members view: invitations and sign-ins (${profile})`, function () {
    this.timeout(180_000);
    let p: DemoPortal;
    let t: Testing;
    let members: Provider;
    let all: MemberJson[];

    before(async () => {
      p = await startDemoPortal({ profile });
      t = await features();
      members = t.members.provider as unknown as Provider;
      const res = await portalJson<{ items: MemberJson[] } | MemberJson[]>(
        p.emu.url,
        p.token,
        'GET',
        '/v3/accounts/1/members?page=1&size=100',
      );
      all = Array.isArray(res.body) ? res.body : res.body.items;
      await setPageSize(100);
      t.members.show({ kind: 'account', portalId: p.portalId, accountId: 1, label: 'Acme Corporation' });
    });
    after(async () => {
      await vscode.commands.executeCommand('portal.members.clearFilter');
      await setPageSize(undefined);
      await t.members.access.sessions.forget();
      await stopDemoPortal(p);
    });

    it('shows the pending invitations as Invited rows, or on a literal portal one plain line', async () => {
      p.emu.resetStats();
      await filter(['invited']);
      const list = await rows(members);
      if (isLiteral(profile)) {
        assert.deepEqual(
          list.map((r) => [r.contextValue, r.label]),
          [['note', 'Invitations are not shown: this portal does not offer them.']],
        );
        return;
      }
      const invited = list.filter((r) => r.contextValue === 'invited');
      assert.equal(invited.length, list.length, 'only invitations');
      assert.deepEqual(invited.map((r) => r.label).sort(), ['board.observer@acme.example', 'new.starter@acme.example']);
      const board = byLabel(invited, 'board.observer@acme.example').description;
      // The mask in words, the groups it would grant, when it was sent, and the power it grants.
      assert.match(board, /^Invited · Group creator · .*Handbook: Basic · sent \S.* · grants power$/, board);
      const starter = byLabel(invited, 'new.starter@acme.example').description;
      assert.match(starter, /^Invited · Member · .*Engineering.*: Standard.* · sent \S/, starter);
      assert.doesNotMatch(starter, /grants power/);
      // Read once, within the budget, and kept: the list again sends nothing.
      const byRoute = p.emu.stats().byRoute;
      assert.equal(byRoute['GET /v3/accounts/:account/invites'], 1);
      p.emu.resetStats();
      t.members.refresh();
      await rows(members);
      assert.equal(p.emu.stats().byRoute['GET /v3/accounts/:account/invites'] ?? 0, 0);
    });

    it('filters the members who never signed in since invited or created, with the invitations beside them', async () => {
      await filter(['neverSignedIn']);
      const list = await loadAll(members, undefined, loadMore);
      const shown = list.filter((r) => r.contextValue.startsWith('member.')).map((r) => r.description.split(' · ')[0]);
      if (isLiteral(profile)) {
        // The audit is not offered: one line says so, and the filter falls back to never active.
        const note = list.filter((r) => r.contextValue === 'note');
        assert.deepEqual(
          note.map((r) => r.label),
          ['Invitations and sign-ins are not shown: this portal does not offer them; last active is shown instead.'],
        );
        const never = all.filter((m) => m.user.lastActive === null || m.user.lastActive === undefined);
        assert.ok(never.length > 0);
        assert.deepEqual(shown.sort(), never.map((m) => m.user.username).sort());
        return;
      }
      const start = new Date(Date.now() - 365 * 86_400_000).toISOString().slice(0, 10);
      const audit = await portalJson<{ items: AuditJson[] }>(
        p.emu.url,
        p.token,
        'GET',
        `/v3/audit?account=1&events=login,signup&dateStart=${start}&page=1&size=100`,
      );
      const signedIn = new Set(audit.body.items.map((e) => e.user?.username.toLowerCase()));
      assert.ok(signedIn.has('demo') && signedIn.size > 2, 'the seed has sign-ins');
      const expected = all.map((m) => m.user.username).filter((u) => !signedIn.has(u.toLowerCase()));
      assert.deepEqual(shown.sort(), expected.sort());
      for (const r of list.filter((x) => x.contextValue.startsWith('member.')))
        assert.match(r.description, /^\S+ · never signed in/, r.description);
      assert.equal(list.filter((r) => r.contextValue === 'invited').length, 2);
      assert.match((await t.members.view.description) ?? '', /never signed in since invited or created/);
    });

    it('shows the audit\u2019s last sign-in beside last active in the tooltip', async () => {
      await vscode.commands.executeCommand('portal.members.clearFilter');
      await withUi({ 'members.search': 'demo' }, () => vscode.commands.executeCommand('portal.members.search'));
      const dana = await tooltipOf(members, byLabel(await rows(members), 'Dana Demo'));
      assert.match(dana, /^Last active: .+$/m);
      if (isLiteral(profile)) assert.doesNotMatch(dana, /Last sign-in \(audit\)/);
      else assert.match(dana, /^Last active: .+\nLast sign-in \(audit\): .+ ago$/m);
    });
  });
