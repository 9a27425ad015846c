import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { startEmulator, type Emulator } from '../../../../emulator';
import { portalIdOf } from '../../../../../src/auth/portalEntry';
import { calendarDate } from '../../../../../src/shared/format';
import { PROFILES, startDemoPortal, stopDemoPortal } from '../../../support/demoPortal';
import { signInForTest } from '../../../support/extension';
import { passwordToken, portalJson } from '../../../support/portalHttp';
import { byLabel, features, loadAll, rows, setPageSize, tooltipOf, walk, type Provider } from '../../../support/tree';
import { readManifest } from '../../../support/manifest';
import { DISMISS, visible, withUi, type ScriptedUi } from '../../../support/ui';
import { waitFor } from '../../../../support/wait';
import { tempDir } from '../../../../support/tempDir';

interface MemberJson {
  user: { username: string; name: string; enabled: boolean; locked: boolean; lastActive?: number | null };
  tags: string[];
  /** 'now', or the date of an activation e-mail still to come (the emulator's v3 answer). */
  activationType?: unknown;
}

/**
 * Not active for `days` as the activity filters count it: never active counts, but not a member who has not started
 * yet (never active, activation e-mail still to come), whom the filters leave out by default.
 */
const inactiveFor = (m: MemberJson, cutoff: number): boolean =>
  m.user.lastActive === null || m.user.lastActive === undefined
    ? !(typeof m.activationType === 'number' || m.activationType === 'custom')
    : m.user.lastActive <= cutoff;
interface Envelope {
  items: MemberJson[];
  totalResults: number;
}

/** Searches the Members view as a person does: the search box, answered. */
const search = (text: string) =>
  withUi({ 'members.search': text }, () => vscode.commands.executeCommand('portal.members.search'));
const clearFilter = () => vscode.commands.executeCommand('portal.members.clearFilter');
const description = async () => (await features()).members.view.description ?? '';

for (const profile of PROFILES)
  describe(`Members view (${profile})`, function () {
    this.timeout(180_000);
    let emu: Emulator;
    let portalId: string;
    let token: string;
    let members: Provider;
    let all: MemberJson[];
    const acme = () => ({ kind: 'account' as const, portalId, accountId: 1, label: 'Acme Corporation' });

    const allMembers = async (query = ''): Promise<MemberJson[]> => {
      const res = await portalJson<Envelope>(emu.url, token, 'GET', `/v3/accounts/1/members?page=1&size=100${query}`);
      assert.equal(res.status, 200);
      return res.body.items;
    };

    before(async () => {
      ({ emu, portalId, token } = await startDemoPortal({ profile }));
      all = await allMembers();
      members = (await features()).members.provider as unknown as Provider;
      await setPageSize(5);
    });

    after(async () => {
      await setPageSize(undefined);
      await stopDemoPortal({ emu, portalId });
    });

    it('follows the Explorer: selecting an account (or anything under it) shows its members', async () => {
      const t = await features();
      await vscode.commands.executeCommand('portal.explorer.focus');
      const engineering = await walk(t.explorer.provider as unknown as Provider, portalId, [
        'Acme Corporation',
        'Engineering',
      ]);
      await t.explorer.view.reveal(engineering.node as never, { select: true, focus: true });
      await waitFor(() => t.members.snapshot().account?.accountId === 1, 'the Members view follows the selection');
      assert.equal(t.members.snapshot().account?.label, 'Acme Corporation');
    });

    it('shows name, username and permission, badges, tags, and a count "5 of 36"', async () => {
      const t = await features();
      t.members.show(acme());
      t.members.refresh();
      const list = await rows(members);
      assert.equal(list.length, 6);
      const more = list[5];
      assert.equal(more?.contextValue, 'loadMore');
      assert.equal(more?.description, `5 of ${all.length}`);
      assert.equal(await description(), `Acme Corporation · 5 of ${all.length}`);
      const first = list[0];
      assert.match(first?.contextValue ?? '', /^member\.(enabled|disabled)(\.locked)?$/);

      await search('victor');
      const victor = byLabel(await rows(members), 'Victor Hale');
      assert.equal(victor.contextValue, 'member.disabled');
      assert.match(victor.description, /^victor\.hale · Member \[disabled\] #contractor$/);
      await search('lena');
      const lena = byLabel(await rows(members), 'Lena Locke');
      assert.equal(lena.contextValue, 'member.enabled.locked');
      assert.equal(lena.icon, 'lock');
      await search('yara');
      const yara = byLabel(await rows(members), 'Yara Haddad');
      assert.match(yara.description, /^yara\.haddad · Member #security$/);
    });

    it('pages through every member with "Load more…", never duplicating or skipping, even when rows shift', async () => {
      await clearFilter();
      (await features()).members.refresh();
      await rows(members);
      // A member whose name sorts first joins between two pages: every later row shifts by one.
      const created = await portalJson(emu.url, token, 'POST', '/v3/accounts/1/members', {
        name: 'Aaron Aardvark',
        username: 'aaron.aardvark',
        email: 'aaron@acme.example',
        password: 'Aardvark-123',
        enabled: true,
      });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      const loaded = await loadAll(members, undefined, 'portal.members.loadMore');
      const usernames = loaded.map((r) => r.description.split(' · ')[0]);
      assert.equal(new Set(usernames).size, usernames.length, 'no member shown twice');
      for (const m of all) assert.ok(usernames.includes(m.user.username), `${m.user.username} is listed`);
      // Compare with the portal's own full list now.
      const now = await allMembers();
      assert.deepEqual(
        new Set(usernames.filter((u) => u !== 'aaron.aardvark')),
        new Set(all.map((m) => m.user.username)),
      );
      assert.equal(now.length, all.length + 1);
    });

    it('searches on the portal: a member on page 3 is found at once, also with "^" for starts-with', async () => {
      const byName = await allMembers('&orderBy=name');
      const target = byName[12];
      assert.ok(target, 'a member on page 3 (page size 5)');
      emu.resetStats();
      await search(target.user.username);
      const found = await rows(members);
      assert.ok(
        found.some((r) => r.label === target.user.name),
        found.map((r) => r.label).join(', '),
      );
      assert.equal(emu.stats().byRoute['GET /v3/accounts/:account/members'], 1, 'one request, filtered by the portal');
      assert.match(await description(), /matches "/);

      const prefix = target.user.name.slice(0, 3);
      await withUi({ 'members.search': `^${prefix}` }, async (ui) => {
        await vscode.commands.executeCommand('portal.members.search');
        assert.deepEqual(ui.questions, ['members.search']);
      });
      const starts = await loadAll(members, undefined, 'portal.members.loadMore');
      const expected = (await allMembers(`&startsWith=${encodeURIComponent(prefix)}`)).map((m) => m.user.name).sort();
      assert.deepEqual(starts.map((r) => r.label).sort(), expected);
      assert.ok(starts.some((r) => r.label === target.user.name));
      assert.match(await description(), /starts with "/);
      await vscode.commands.executeCommand('portal.members.clearFilter');
    });

    it('filters by tag on the portal (members not loaded yet included)', async () => {
      const tagged = all.filter((m) => m.tags.includes('support'));
      assert.ok(tagged.length > 0);
      await withUi({ 'members.tags': (tag: { name?: string }) => tag.name === 'support' }, () =>
        vscode.commands.executeCommand('portal.members.filterByTag'),
      );
      const list = await loadAll(members, undefined, 'portal.members.loadMore');
      assert.deepEqual(list.map((r) => r.label).sort(), tagged.map((m) => m.user.name).sort());
      assert.match(await description(), /tagged #support/);
      await vscode.commands.executeCommand('portal.members.clearFilter');
    });

    it('filters by activity and state: inactive for 90 days and disabled, members not loaded yet included', async () => {
      const cutoff = Date.now() - 90 * 86_400_000;
      // Read now: earlier tests add members (never active, so inactive) after the suite's first read.
      const now = await allMembers();
      const wanted = now.filter((m) => !m.user.enabled && inactiveFor(m, cutoff));
      const inactive = now.filter((m) => inactiveFor(m, cutoff));
      assert.ok(inactive.length > 0 && inactive.length < now.length, 'the seed has members on both sides of 90 days');
      await withUi(
        {
          'members.activity': (v: string) => v === 'inactive' || v === 'disabled',
          'members.activity.days': '90',
        },
        () => vscode.commands.executeCommand('portal.members.filterActivity'),
      );
      const list = await loadAll(members, undefined, 'portal.members.loadMore');
      assert.deepEqual(list.map((r) => r.label).sort(), wanted.map((m) => m.user.name).sort());
      assert.match(await description(), /inactive 90\+ days/);
      await withUi({ 'members.activity': 'Inactive for a number of days…', 'members.activity.days': '90' }, () =>
        vscode.commands.executeCommand('portal.members.filterActivity'),
      );
      const list90 = await loadAll(members, undefined, 'portal.members.loadMore');
      assert.deepEqual(list90.map((r) => r.label).sort(), inactive.map((m) => m.user.name).sort());
      // Counted plainly, and each row says the date that made it match.
      assert.match(await description(), new RegExp(`· ${inactive.length} of ${now.length} match ·`));
      for (const r of list90) assert.match(r.description, /^\S+ · (never active|last active \S)/, r.description);
      await vscode.commands.executeCommand('portal.members.clearFilter');
      assert.doesNotMatch(await description(), /inactive/);
    });

    it('scopes "inactive 90+ days" to a group: exactly its inactive members, with the date and their level there, counted; the export writes those rows', async () => {
      const cutoff = Date.now() - 90 * 86_400_000;
      const now = await allMembers();
      const inactive = now.filter((m) => inactiveFor(m, cutoff));
      const groups = await portalJson<Array<{ id: number; name: string; friendlyName: string }>>(
        emu.url,
        token,
        'GET',
        '/v2/accounts/1/groups',
      );
      const engineering = groups.body.find((g) => g.name === 'engineering');
      assert.ok(engineering);
      // The truth from the portal: each inactive member's groups, one v2 read each.
      const levels = new Map<string, number>();
      for (const m of inactive) {
        const read = await portalJson<{ groups?: Record<string, number> }>(
          emu.url,
          token,
          'GET',
          `/v2/accounts/1/members/${encodeURIComponent(m.user.username)}`,
        );
        const level = read.body.groups?.engineering ?? 0;
        if (level > 0) levels.set(m.user.username, level);
      }
      const wanted = inactive.filter((m) => levels.has(m.user.username));
      (await features()).members.show(acme());
      assert.ok(wanted.length > 0 && wanted.length < inactive.length, 'inactive members both in Engineering and not');
      emu.resetStats();
      await withUi(
        {
          'members.activity': (v: string) => v === 'inactive' || v === 'group',
          'members.activity.days': '90',
          'members.activity.group': engineering.friendlyName,
        },
        async (ui) => {
          await vscode.commands.executeCommand('portal.members.filterActivity');
          const offered = ui.asked.find((q) => q.id === 'members.activity.group')?.items ?? [];
          assert.equal(offered.length, groups.body.length, 'every group of the organisation is offered');
        },
      );
      const list = await loadAll(members, undefined, 'portal.members.loadMore');
      assert.deepEqual(list.map((r) => r.label).sort(), wanted.map((m) => m.user.name).sort());
      const words: Record<number, string> = { 1: 'Basic', 4: 'Standard', 16: 'Administrator' };
      for (const r of list) {
        const m = wanted.find((w) => w.user.name === r.label);
        assert.ok(m);
        const last = m.user.lastActive ?? null;
        const date = last === null ? 'never active' : `last active ${calendarDate(last)}`;
        const level = words[levels.get(m.user.username) ?? 0];
        assert.ok(
          r.description.startsWith(`${m.user.username} · ${date} · ${level} in ${engineering.friendlyName}`),
          r.description,
        );
      }
      assert.equal(
        await description(),
        `Acme Corporation · ${wanted.length} of ${now.length} match · inactive 90+ days in ${engineering.friendlyName}`,
      );
      // Only the inactive members' groups were asked for (fewer still when the access store knew them).
      const reads = emu.stats().byRoute['GET /v2/accounts/:account/members/:username'] ?? 0;
      assert.ok(reads <= inactive.length, `${reads} member reads for ${inactive.length} inactive members`);
      const dir = tempDir('members-csv-');
      const file = path.join(dir, 'inactive-engineering.csv');
      try {
        await withUi({ 'members.export.file': file, 'members.export.groups': 'Members only' }, () =>
          vscode.commands.executeCommand('portal.members.exportCsv'),
        );
        const exported = fs
          .readFileSync(file, 'utf8')
          .replace(/^\uFEFF/, '')
          .split('\r\n')
          .slice(1, -1)
          .map((l) => l.split(',')[0] ?? '');
        assert.deepEqual(
          exported,
          list.map((r) => r.description.split(' · ')[0]),
          'the file holds the rows the view shows, in its order',
        );
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
        await clearFilter();
      }
    });

    it('exports what the activity filter shows: inactive for 90 days, exactly those members, and names the filter', async () => {
      const cutoff = Date.now() - 90 * 86_400_000;
      const now = await allMembers();
      const inactive = now.filter((m) => inactiveFor(m, cutoff));
      assert.ok(inactive.length > 0 && inactive.length < now.length, 'the seed has members on both sides of 90 days');
      const dir = tempDir('members-csv-');
      const file = path.join(dir, 'inactive.csv');
      try {
        await withUi({ 'members.activity': 'Inactive for a number of days…', 'members.activity.days': '90' }, () =>
          vscode.commands.executeCommand('portal.members.filterActivity'),
        );
        const shown = await loadAll(members, undefined, 'portal.members.loadMore');
        await withUi({ 'members.export.file': file, 'members.export.groups': 'Members only' }, async (ui) => {
          await vscode.commands.executeCommand('portal.members.exportCsv');
          const saved = ui.asked.find((q) => q.id === 'members.export.file');
          assert.match(saved?.texts[0] ?? '', /^Export the members of Acme Corporation \(inactive 90\+ days\)$/);
          const done = ui.asked.find((q) => q.id === 'members.export.done');
          assert.equal(
            done?.texts[0],
            `Exported ${inactive.length} members (inactive 90+ days) to ${file}.`,
            'the summary names the filter',
          );
        });
        const lines = fs
          .readFileSync(file, 'utf8')
          .replace(/^\uFEFF/, '')
          .split('\r\n')
          .slice(1, -1);
        const exported = lines.map((l) => l.split(',')[0] ?? '');
        assert.deepEqual(
          [...exported].sort(),
          inactive.map((m) => m.user.username).sort(),
          'the file holds exactly the members inactive for 90 days',
        );
        // In the order the view shows them (least recently active first), the same rows as the view.
        assert.deepEqual(
          exported,
          shown.map((r) => r.description.split(' · ')[0]),
        );
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
        await clearFilter();
      }
    });

    it('searches the tag summary on the portal by name and by prefix, in the order chosen', async () => {
      const counts = new Map<string, number>();
      for (const m of all) for (const t of m.tags) counts.set(t, (counts.get(t) ?? 0) + 1);
      /** The tags offered by one search (the first row is the order). */
      const offered = (ui: ScriptedUi, n: number): string[] =>
        (ui.asked.filter((q) => q.id === 'members.tags')[n]?.items ?? []).slice(1).map(visible);
      const byMembers = (a: string, b: string) => (counts.get(b) ?? 0) - (counts.get(a) ?? 0);
      emu.resetStats();
      await withUi(
        {
          'members.tags': [
            { search: 'e', pick: 0 },
            { search: '^s', pick: 0 },
            { search: '^s', pick: (t: { name?: string }) => t.name === 'sales' },
          ],
          'members.tags.order': ['Name (Z → A)', 'Name (A → Z)'],
        },
        async (ui) => {
          await vscode.commands.executeCommand('portal.members.filterByTag');
          const contains = offered(ui, 0);
          assert.deepEqual(
            new Set(contains),
            new Set([...counts.keys()].filter((t) => t.toLowerCase().includes('e'))),
            'every tag with an "e", from the portal',
          );
          assert.deepEqual(
            contains.map((t) => counts.get(t)),
            [...contains].sort(byMembers).map((t) => counts.get(t)),
            'most members first, to start with',
          );
          assert.match(
            visible(ui.asked.find((q) => q.id === 'members.tags')?.items?.[0] ?? ''),
            /^Order: Most members first/,
          );
          const prefixed = offered(ui, 1);
          assert.deepEqual(
            prefixed,
            [...counts.keys()]
              .filter((t) => t.startsWith('s'))
              .sort()
              .reverse(),
            'starting with "s", Z → A',
          );
          assert.deepEqual(offered(ui, 2), [...prefixed].reverse(), 'then A → Z');
        },
      );
      assert.equal(emu.stats().byRoute['GET /v3/accounts/:account/member-tags'], 3, 'one summary request per search');
      assert.match(await description(), /tagged #sales/);
      await vscode.commands.executeCommand('portal.members.clearFilter');
      // The order chosen stays for the session: put back the first one, so the next profile's run starts as a new window does.
      await withUi({ 'members.tags': [0, DISMISS], 'members.tags.order': 'Most members first' }, () =>
        vscode.commands.executeCommand('portal.members.filterByTag'),
      );
    });

    it('sorts on the portal', async () => {
      await withUi({ 'members.order': 'E-mail' }, () => vscode.commands.executeCommand('portal.members.sort'));
      const firstPage = (await rows(members)).filter((r) => r.contextValue.startsWith('member.'));
      const expected = (await allMembers('&orderBy=email')).slice(0, 5).map((m) => m.user.name);
      assert.deepEqual(
        firstPage.map((r) => r.label),
        expected,
      );
      await vscode.commands.executeCommand('portal.members.clearFilter');
    });

    it("shows in the tooltip what the portal says of a member, and v2's last sign-in and two-factor mode from one request", async () => {
      (await features()).members.show(acme());
      await search('demo');
      const list = await rows(members);
      const tip = (label: string) => tooltipOf(members, byLabel(list, label));
      emu.resetStats();
      const dana = await tip('Dana Demo');
      for (const line of [
        'demo@acme.example (verified)',
        'Job title: Portal administrator',
        'Telephone: +44 20 7946 0000',
        'Two-factor authentication: off',
      ]) {
        assert.ok(dana.split('\n').includes(line), `"${line}" in:\n${dana}`);
      }
      assert.match(dana, /^Last active: .+ ago$/m);
      assert.match(dana, /^Last signed in: .+ ago$/m);
      const tomas = await tip('Tomás Twofactor');
      assert.match(tomas, /^Two-factor authentication: on \(Authenticator\)$/m);
      assert.match(tomas, /^Job title: not given$/m, 'null is "not given"');
      assert.match(tomas, /^Last signed in: not given$/m, 'null is "not given", not "never"');
      await tip('Dana Demo');
      await tip('Tomás Twofactor');
      assert.equal(
        emu.stats().byRoute['GET /v2/accounts/:account/members/:username'],
        2,
        'one request per member, however often it is hovered',
      );

      await search('goran.kowalski');
      const goran = await tooltipOf(members, (await rows(members))[0] as never);
      assert.match(goran, /^Activation pending: the e-mail goes out \d{4}-\d{2}-\d{2} \d{2}:\d{2}$/m);
      await clearFilter();
    });

    it('exports the view to CSV with its search and order, or its tag filter: every matching member, not only the rows loaded', async () => {
      const dir = tempDir('members-csv-');
      const file = path.join(dir, 'acme.csv');
      const usernamesIn = (text: string): string[] =>
        text
          .replace(/^\uFEFF/, '')
          .split('\r\n')
          .slice(1, -1)
          .map((l) => l.split(',')[0] ?? '');
      try {
        await search('an');
        await withUi({ 'members.order': 'E-mail' }, () => vscode.commands.executeCommand('portal.members.sort'));
        assert.equal(
          (await rows(members)).filter((r) => r.contextValue.startsWith('member.')).length,
          5,
          'the view has loaded one page of 5',
        );
        await withUi({ 'members.export.file': file, 'members.export.groups': 'Members only' }, async (ui) => {
          await vscode.commands.executeCommand('portal.members.exportCsv');
          const expected = await allMembers('&name=an&orderBy=email');
          assert.ok(expected.length > 5);
          const done = ui.asked.find((q) => q.id === 'members.export.done');
          assert.deepEqual(
            done?.texts,
            [
              `Exported ${expected.length} members (matches "an" · by e-mail) to ${file}.`,
              'Open',
              'Reveal in Explorer',
            ],
            'the notification offers to open the file or show it',
          );
          const text = fs.readFileSync(file, 'utf8');
          assert.ok(
            text.startsWith(
              '\uFEFFUsername,Name,E-mail,Enabled,Locked,Organisation permission,Tags,Two-factor,Member since,Last active,Job title\r\n',
            ),
          );
          assert.deepEqual(
            usernamesIn(text),
            expected.map((m) => m.user.username),
            'the same members in the same order',
          );
          assert.ok(
            ui.asked.some(
              (q) => q.id === 'members.export.progress' && /matches "an" · by e-mail/.test(q.texts[0] ?? ''),
            ),
          );
        });
        await withUi({ 'members.tags': (t: { name?: string }) => t.name === 'support' }, () =>
          vscode.commands.executeCommand('portal.members.filterByTag'),
        );
        await withUi({ 'members.export.file': file, 'members.export.groups': 'Members only' }, () =>
          vscode.commands.executeCommand('portal.members.exportCsv'),
        );
        assert.deepEqual(
          usernamesIn(fs.readFileSync(file, 'utf8')).sort(),
          all
            .filter((m) => m.tags.includes('support'))
            .map((m) => m.user.username)
            .sort(),
        );
        assert.deepEqual(fs.readdirSync(dir), ['acme.csv'], 'no temporary file left');
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
        await clearFilter();
      }
    });

    it('"Choose Organisation for Members…" shows the organisation picked; "Refresh" asks the portal again; "Retry" after a failed load', async () => {
      const t = await features();
      await withUi(
        { 'pick.portal': (id: string) => id === portalId, 'pick.account': 'Globex Research' },
        () => vscode.commands.executeCommand('portal.members.chooseAccount'),
        { allUsed: false },
      );
      assert.equal(t.members.snapshot().account?.label, 'Globex Research');
      t.members.show(acme());
      await rows(members);

      // Renamed on the portal: the view shows the old name until refreshed.
      await search('mia');
      assert.equal((await rows(members))[0]?.label, 'Mia Member');
      const renamed = await portalJson(emu.url, token, 'POST', '/v2/accounts/1/members/member', {
        user: { name: 'Mia Renamed' },
      });
      assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
      assert.equal((await rows(members))[0]?.label, 'Mia Member', 'from the cache');
      await vscode.commands.executeCommand('portal.members.refresh');
      assert.equal((await rows(members))[0]?.label, 'Mia Renamed');

      emu.setFaults([{ kind: 'status', status: 500, path: '/v3/accounts/1/members', method: 'GET' }]);
      await vscode.commands.executeCommand('portal.members.refresh');
      const failed = await rows(members);
      assert.deepEqual(
        failed.map((r) => r.contextValue),
        ['error'],
      );
      emu.clearFaults();
      await vscode.commands.executeCommand('portal.members.retry', failed[0]?.node);
      assert.equal((await rows(members))[0]?.label, 'Mia Renamed');
      await portalJson(emu.url, token, 'POST', '/v2/accounts/1/members/member', { user: { name: 'Mia Member' } });
      await clearFilter();
      t.members.refresh();
    });

    it('searches with a key of its own while the Members view has focus, one VS Code does not already use', async () => {
      const binding = (
        readManifest() as { contributes?: { keybindings?: Array<{ command: string; key: string; when?: string }> } }
      ).contributes?.keybindings?.find((k) => k.command === 'portal.members.search');
      assert.deepEqual(binding && { key: binding.key, when: binding.when }, {
        key: 'ctrl+alt+m',
        when: 'focusedView == portal.members',
      });
      // The default keybindings as VS Code lists them (ours among them: those are left out).
      await vscode.commands.executeCommand('workbench.action.openDefaultKeybindingsFile');
      const text = vscode.window.activeTextEditor?.document.getText() ?? '';
      const entries = [...text.matchAll(/"key":\s*"([^"]+)",\s*"command":\s*"([^"]+)"/g)].map(([, key, command]) => ({
        key,
        command,
      }));
      assert.ok(
        entries.some((e) => e.key === 'ctrl+shift+f'),
        'the defaults were read',
      );
      assert.deepEqual(
        entries.filter((e) => e.key === binding?.key && !e.command?.startsWith('portal.')),
        [],
        `${binding?.key} is not one of VS Code's own keys`,
      );
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    });

    it('disables, enables, locks and unlocks a member in place', async () => {
      await search('bruno');
      const bruno = (await rows(members))[0];
      assert.ok(bruno?.contextValue.startsWith('member.enabled'), bruno?.contextValue);
      await vscode.commands.executeCommand('portal.member.disable', bruno?.node);
      let now = (await rows(members))[0];
      assert.equal(now?.contextValue, 'member.disabled');
      await vscode.commands.executeCommand('portal.member.lock', now?.node);
      now = (await rows(members))[0];
      assert.equal(now?.contextValue, 'member.disabled.locked');
      const onPortal = (await allMembers('&name=bruno'))[0];
      assert.equal(onPortal?.user.enabled, false);
      assert.equal(onPortal?.user.locked, true);
      await vscode.commands.executeCommand('portal.member.unlock', now?.node);
      await vscode.commands.executeCommand('portal.member.enable', (await rows(members))[0]?.node);
      now = (await rows(members))[0];
      assert.equal(now?.contextValue, 'member.enabled');
    });

    it('deletes a member only after the username is typed, and says a user left in no organisation is gone for good', async () => {
      await search('aaron');
      const aaron = (await rows(members))[0];
      assert.equal(aaron?.label, 'Aaron Aardvark');
      const answers = {
        'member.delete.confirm': [true, true],
        'member.delete.typeUsername': ['aaron', 'aaron.aardvark'],
      };
      await withUi(answers, async (ui) => {
        assert.equal(
          await vscode.commands.executeCommand('portal.member.delete', aaron?.node),
          undefined,
          'a wrong username ends the command quietly',
        );
        const [confirm, typed] = ui.asked.filter((q) => q.kind !== 'progress');
        assert.match(
          confirm?.texts.join('\n') ?? '',
          /DELETED FOR GOOD\. A snapshot is kept first, so Undo can re-create them/,
        );
        assert.match(typed?.texts.join('\n') ?? '', /Type the username "aaron\.aardvark"/);
        assert.deepEqual(
          ui.refused.map((r) => r.problem),
          ['Type the username exactly as shown.'],
        );
        assert.equal(await vscode.commands.executeCommand('portal.member.delete', aaron?.node), true);
      });
      const res = await portalJson(emu.url, token, 'GET', '/v3/accounts/1/members/aaron.aardvark');
      assert.equal(res.status, 404);
      assert.deepEqual(
        (await rows(members)).map((r) => r.contextValue),
        ['empty'],
      );
      await clearFilter();
    });
  });

for (const profile of PROFILES)
  describe(`Members view: a long list (${profile})`, function () {
    this.timeout(120_000);
    let emu: Emulator;
    let portalId: string;

    before(async () => {
      emu = await startEmulator({
        port: 0,
        seed: 'large',
        profile,
        quiet: true,
        large: { members: 697, files: 10, groups: 2, folderDepth: 1 },
      });
      portalId = portalIdOf(emu.url, 'portal');
      const script = await signInForTest({ baseUrl: emu.url, username: 'demo', password: 'demo' });
      assert.deepEqual(script.failures, []);
      await setPageSize(100);
    });

    after(async () => {
      await setPageSize(undefined);
      await stopDemoPortal({ emu, portalId });
    });

    it('folds earlier rows into ranges past 500, so each "Load more…" redraws few rows, and still lists everyone once', async () => {
      const t = await features();
      const members = t.members.provider as unknown as Provider;
      t.members.show({ kind: 'account', portalId, accountId: 1, label: 'BigCorp International' });
      emu.resetStats();
      const all = await loadAll(members, undefined, 'portal.members.loadMore');
      assert.equal(emu.stats().byRoute['GET /v3/accounts/:account/members'], 7, 'one request per page of 100');
      const usernames = all.map((r) => r.description.split(' · ')[0]);
      assert.equal(usernames.length, 700);
      assert.equal(new Set(usernames).size, 700, 'no member twice');
      const top = await rows(members);
      assert.deepEqual(
        top.filter((r) => r.contextValue === 'range').map((r) => r.label),
        ['1–100', '101–200', '201–300', '301–400', '401–500', '501–600'],
      );
      assert.equal(top.filter((r) => r.contextValue.startsWith('member.')).length, 100, 'only the last rows are flat');
      const token = await passwordToken(emu.url, 'demo', 'demo');
      const res = await portalJson<{ items: Array<{ user: { username: string } }> }>(
        emu.url,
        token,
        'GET',
        '/v3/accounts/1/members?page=1&size=100&orderBy=name',
      );
      assert.deepEqual(
        usernames.slice(0, 100),
        res.body.items.map((m) => m.user.username),
        'the first range holds the first page, in order',
      );
    });

    it('a cancelled CSV export leaves no file behind, and an earlier export at the same path as it was', async () => {
      const t = await features();
      t.members.show({ kind: 'account', portalId, accountId: 1, label: 'BigCorp International' });
      const dir = tempDir('members-csv-');
      const file = path.join(dir, 'bigcorp.csv');
      fs.writeFileSync(file, 'an earlier export\r\n');
      try {
        await withUi(
          {
            'members.export.file': file,
            'members.export.groups': 'Members only',
            'members.export.progress': { cancelAfterReports: 2 },
          },
          async (ui) => {
            await vscode.commands.executeCommand('portal.members.exportCsv');
            assert.deepEqual(
              ui.told.map((x) => x.text),
              ['The export was cancelled; no file was written.'],
            );
          },
        );
        assert.equal(fs.readFileSync(file, 'utf8'), 'an earlier export\r\n');
        assert.deepEqual(fs.readdirSync(dir), ['bigcorp.csv'], 'no temporary file left');
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  });
