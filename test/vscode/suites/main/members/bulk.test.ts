// Bulk member edits on the Members view's selection, as VS Code runs a context-menu entry on several rows: the clicked
// row and the selection. Every change is checked on the portal over HTTP, not through the extension.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { startEmulator, type Emulator } from '../../../../emulator';
import { portalIdOf } from '../../../../../src/auth/portalEntry';
import { PROFILES, startDemoPortal, stopDemoPortal, type DemoPortal } from '../../../support/demoPortal';
import { signInForTest } from '../../../support/extension';
import { portalJson } from '../../../support/portalHttp';
import { features, loadAll, setPageSize, type Provider, type Row } from '../../../support/tree';
import { showAcmeMembers } from '../../../support/membersView';
import { visible, withUi, type ScriptedUi } from '../../../support/ui';

interface MemberJson {
  user: { username: string; enabled: boolean; locked: boolean };
  tags: string[];
  memberOfMultipleAccounts: boolean;
}
interface MemberV2Json {
  groups?: Record<string, number>;
}

const username = (r: Row): string => (r.node as { ref: { username: string } }).ref.username;
const told = (ui: ScriptedUi): string[] => ui.told.map((t) => visible(t.text));
const asked = (ui: ScriptedUi, id: string): string =>
  visible(ui.asked.find((q) => q.id === id)?.texts.join('\n') ?? '');

/** Runs a member command on `rows` as VS Code does for a multi-selection: (clicked row, every selected row). */
function onSelection(command: string, rows: readonly Row[]): Thenable<unknown> {
  return vscode.commands.executeCommand(
    command,
    rows[0]?.node,
    rows.map((r) => r.node),
  );
}

for (const profile of PROFILES)
  describe(`Members: bulk edits on a selection (${profile})`, function () {
    this.timeout(180_000);
    let p: DemoPortal;
    let members: Provider;
    const member = async (name: string): Promise<MemberJson> => {
      const res = await portalJson<MemberJson>(
        p.emu.url,
        p.token,
        'GET',
        `/v3/accounts/1/members/${encodeURIComponent(name)}`,
      );
      assert.equal(res.status, 200, `GET ${name}`);
      return res.body;
    };
    /** The view's rows, all of them (one page of 100), as the view shows them now. */
    const shown = async (): Promise<Row[]> => loadAll(members, undefined, 'portal.members.loadMore');
    /** Members of the seed no other test here touches: generated ones, by username. */
    const pickRows = async (from: number, n: number, test: (r: Row) => boolean = () => true): Promise<Row[]> => {
      const all = (await shown()).filter(
        (r) => r.contextValue.startsWith('member.') && /^[a-z]+\.[a-z]+$/.test(username(r)) && test(r),
      );
      const picked = all.slice(from, from + n);
      assert.equal(picked.length, n, `${n} rows from ${from} among ${all.length}`);
      return picked;
    };

    before(async () => {
      p = await startDemoPortal({ profile });
      members = await showAcmeMembers(p.portalId);
    });

    after(async () => {
      await setPageSize(undefined);
      await stopDemoPortal(p);
    });

    afterEach(() => p.emu.clearFaults());

    it('disables six selected members: one confirmation naming the count, progress, a summary, the rows changed in place', async () => {
      const rows = await pickRows(0, 6, (r) => r.contextValue === 'member.enabled');
      p.emu.resetStats();
      await withUi({ 'members.bulk.confirm': true }, async (ui) => {
        await onSelection('portal.member.disable', rows);
        assert.deepEqual(ui.questions, ['members.bulk.confirm'], 'one question');
        assert.match(asked(ui, 'members.bulk.confirm'), /^Disable 6 members of Acme Corporation\?/);
        assert.ok(
          ui.asked.some((q) => q.kind === 'progress' && q.id === 'members.bulk.progress' && q.texts.includes('6 of 6')),
          'progress counts the members',
        );
        assert.deepEqual(told(ui), ['Disabled 6 of 6 members.']);
      });
      const stats = p.emu.stats().byRoute;
      assert.equal(stats['PATCH /v3/accounts/:account/members/:username'], 6, 'one request per member');
      assert.equal(stats['GET /v3/accounts/:account/members'], undefined, 'the list is not asked again');
      const now = await shown();
      for (const r of rows) {
        assert.equal(
          now.find((x) => username(x) === username(r))?.contextValue,
          'member.disabled',
          `${username(r)} shows disabled`,
        );
        assert.equal((await member(username(r))).user.enabled, false, `${username(r)} is disabled on the portal`);
      }

      // Enabling them and one more that is enabled already: the summary says why that one was skipped.
      const more = [
        ...now.filter((x) => rows.some((r) => username(r) === username(x))),
        ...(await pickRows(6, 1, (r) => r.contextValue === 'member.enabled')),
      ];
      await withUi({ 'members.bulk.confirm': true }, async (ui) => {
        await onSelection('portal.member.enable', more);
        assert.deepEqual(told(ui), ['Enabled 6 of 7 members. Skipped 1: already enabled.']);
      });
      for (const r of more) assert.equal((await member(username(r))).user.enabled, true);
    });

    it('says no to the confirmation: nothing is sent', async () => {
      const rows = await pickRows(0, 3);
      p.emu.resetStats();
      await withUi({ 'members.bulk.confirm': false }, async (ui) => {
        assert.equal(await onSelection('portal.member.lock', rows), undefined);
        assert.deepEqual(ui.told, []);
      });
      assert.equal(p.emu.stats().byRoute['PATCH /v3/accounts/:account/members/:username'], undefined);
    });

    it('the confirmation names who is unusual: awaiting activation, Super administrators, already disabled', async () => {
      const rows = (await shown()).filter((r) => r.contextValue.startsWith('member.'));
      p.emu.resetStats();
      await withUi({ 'members.bulk.confirm': false }, async (ui) => {
        await onSelection('portal.member.disable', rows);
        const question = asked(ui, 'members.bulk.confirm');
        assert.match(question, /^Disable \d+ members of Acme Corporation\?/);
        assert.match(question, /\d+ are still awaiting activation/);
        assert.match(question, /(\d+ are Super administrators|1 is a Super administrator)/);
        assert.match(question, /(\d+ are already disabled|1 is already disabled)/);
        assert.match(question, /Super administrators: .*demo/);
        assert.match(question, /Left as they are, already disabled: .*victor\.hale/);
      });
      assert.equal(p.emu.stats().byRoute['PATCH /v3/accounts/:account/members/:username'], undefined);
    });

    it('Remove Local Data for This Portal… removes the journals of its edits: asked again, nothing is left', async () => {
      const rows = await pickRows(3, 2);
      await withUi({ 'members.tag.add': 'local-data', 'members.bulk.confirm': true }, () =>
        onSelection('portal.member.addTag', rows),
      );
      // What other features keep beside the members' journals: chat's call log and a staged drop no upload names.
      const storage = (await features()).records.storageFolder;
      const callLog = path.join(storage, 'chat', 'tool-calls.jsonl');
      const drop = path.join(storage, 'dropped-files', `local-data-${profile}`);
      fs.mkdirSync(path.dirname(callLog), { recursive: true });
      fs.appendFileSync(callLog, `${JSON.stringify({ at: 1, tool: 'members', input: {}, outcome: 'answered' })}\n`);
      fs.mkdirSync(drop, { recursive: true });
      fs.writeFileSync(path.join(drop, 'note.txt'), 'note\n');
      await withUi(
        { 'pick.portal': ((v: unknown) => v === p.portalId) as never, 'localData.remove': 'remove' },
        async (ui) => {
          await vscode.commands.executeCommand('portal.localData.remove');
          assert.match(
            asked(ui, 'localData.remove'),
            /^Remove what this computer keeps about the people of .+\? \d+ apply journals?.*; and, for every portal, not this one alone: .*staged drop.*chat's call log/,
          );
          assert.match(told(ui).join('\n'), /^Removed \d+ files kept for /);
        },
        { allUsed: false },
      );
      assert.ok(!fs.existsSync(callLog), "chat's call log removed");
      assert.ok(!fs.existsSync(drop), 'the staged drop removed');
      await withUi(
        { 'pick.portal': ((v: unknown) => v === p.portalId) as never },
        async (ui) => {
          await vscode.commands.executeCommand('portal.localData.remove');
          assert.match(told(ui).join('\n'), /^Nothing is kept on this computer for /);
        },
        { allUsed: false },
      );
    });

    it('cancelled mid-way, every member is either fully changed or untouched, on the portal and in the view', async () => {
      const rows = await pickRows(0, 20);
      const before = new Map(
        await Promise.all(rows.map(async (r) => [username(r), (await member(username(r))).tags] as const)),
      );
      // Slow answers, so that the user's cancel lands while members are still waiting to start.
      p.emu.setFaults([{ kind: 'latency', delayMs: 150, method: 'PATCH', path: '/v3/accounts/1/members/' }]);
      let message = '';
      const answers = {
        'members.tag.add': ' cancel-test ',
        'members.bulk.confirm': true,
        'members.bulk.progress': { cancelAfterReports: 3 },
      };
      await withUi(answers, async (ui) => {
        await onSelection('portal.member.addTag', rows);
        assert.match(
          asked(ui, 'members.bulk.confirm'),
          /^Add the tag "cancel-test" to 20 members of Acme Corporation\?/,
        );
        message = told(ui)[0] ?? '';
      });
      const [, done, total] =
        /^Tagged (\d+) of (\d+) members "[^"]+"\. Cancelled: (\d+) not started/.exec(message) ?? [];
      assert.ok(done && total, message);
      const changed: string[] = [];
      const untouched: string[] = [];
      for (const r of rows) {
        const was = before.get(username(r)) ?? [];
        const tags = (await member(username(r))).tags;
        if (tags.length === was.length) {
          assert.deepEqual(tags, was, `${username(r)} untouched`);
          untouched.push(username(r));
        } else {
          assert.deepEqual(
            tags.filter((t) => t !== 'cancel-test'),
            was,
            `${username(r)} changed only by the tag`,
          );
          changed.push(username(r));
        }
      }
      assert.equal(changed.length, Number(done), message);
      assert.ok(
        untouched.length > 0 && changed.length >= 3,
        `${changed.length} changed, ${untouched.length} untouched`,
      );
      const view = await shown();
      for (const u of changed)
        assert.match(view.find((x) => username(x) === u)?.description ?? '', /#cancel-test/, `${u} shows the tag`);
      for (const u of untouched)
        assert.doesNotMatch(
          view.find((x) => username(x) === u)?.description ?? '',
          /#cancel-test/,
          `${u} shows no tag`,
        );
    });

    it('lists each failure with its reason and retries just the failures', async () => {
      const rows = await pickRows(0, 4, (r) => r.contextValue === 'member.enabled');
      const [first, second] = rows.map(username);
      // The portal answers 200 but keeps the old values, once each for two members.
      p.emu.setFaults([
        { kind: 'ignore-writes', method: 'PATCH', path: `/v3/accounts/1/members/${first}`, count: 1 },
        { kind: 'ignore-writes', method: 'PATCH', path: `/v3/accounts/1/members/${second}`, count: 1 },
      ]);
      await withUi({ 'members.bulk.confirm': true, 'members.bulk.summary': 'retry' }, async (ui) => {
        await onSelection('portal.member.lock', rows);
        assert.deepEqual(ui.questions, ['members.bulk.confirm', 'members.bulk.summary']);
        const summary = ui.asked.find((q) => q.id === 'members.bulk.summary');
        assert.equal(summary?.texts[0], 'Locked 2 of 4 members. Failed: 2.');
        const detail = summary?.texts[1] ?? '';
        for (const u of [first, second])
          assert.match(detail, new RegExp(`^${u}: The portal answered but did not apply the change`, 'm'));
        assert.ok(summary?.texts.includes('Retry Failures'));
        assert.equal(
          ui.asked.filter((q) => q.id === 'members.bulk.progress').length,
          2,
          'the retry runs with its own progress',
        );
        assert.deepEqual(told(ui), ['Locked 2 of 2 members.'], 'the retry ran the two failures only');
      });
      for (const u of rows.map(username)) assert.equal((await member(u)).user.locked, true, `${u} is locked`);
      const view = await shown();
      for (const u of rows.map(username))
        assert.equal(view.find((x) => username(x) === u)?.contextValue, 'member.enabled.locked');
      await withUi({ 'members.bulk.confirm': true }, async () =>
        onSelection(
          'portal.member.unlock',
          view.filter((x) => rows.some((r) => username(r) === username(x))),
        ),
      );
      for (const u of rows.map(username)) assert.equal((await member(u)).user.locked, false, `${u} is unlocked again`);
    });

    it('sets the permission of the selected members in one group', async () => {
      const rows = await pickRows(8, 3);
      await withUi(
        { 'permission.group': 'Social Club', 'permission.level': 'Administrator', 'members.bulk.confirm': true },
        async (ui) => {
          await onSelection('portal.changeMemberGroupPermission', rows);
          assert.match(asked(ui, 'members.bulk.confirm'), /^Make 3 members "Administrator" in the group Social Club\?/);
          assert.deepEqual(told(ui), ['3 of 3 members are now "Administrator" in Social Club.']);
        },
      );
      for (const r of rows) {
        const res = await portalJson<MemberV2Json>(p.emu.url, p.token, 'GET', `/v2/accounts/1/members/${username(r)}`);
        assert.equal(res.body.groups?.social, 16, `${username(r)} administers Social Club`);
      }
    });

    it('adds and removes a tag: on one row at once, on a selection after the confirmation', async () => {
      const [one] = await pickRows(12, 1);
      assert.ok(one);
      await withUi({ 'members.tag.add': 'vip' }, async (ui) => {
        await vscode.commands.executeCommand('portal.member.addTag', one.node);
        assert.deepEqual(ui.questions, ['members.tag.add'], 'no confirmation for one member');
      });
      assert.ok((await member(username(one))).tags.includes('vip'));
      const rows = await pickRows(12, 3);
      await withUi({ 'members.tag.add': 'vip', 'members.bulk.confirm': true }, async (ui) => {
        await onSelection('portal.member.addTag', rows);
        assert.deepEqual(told(ui), ['Tagged 2 of 3 members "vip". Skipped 1: already tagged.']);
      });
      await withUi({ 'members.tag.remove': 'vip', 'members.bulk.confirm': true }, async (ui) => {
        await onSelection('portal.member.removeTag', await pickRows(12, 3));
        const offered = ui.asked.find((q) => q.id === 'members.tag.remove');
        assert.ok(offered?.texts.includes('on 3 of 3'), JSON.stringify(offered?.texts));
      });
      for (const r of rows)
        assert.ok(!(await member(username(r))).tags.includes('vip'), `${username(r)} has no vip tag`);
      const view = await shown();
      for (const r of rows)
        assert.doesNotMatch(view.find((x) => username(x) === username(r))?.description ?? '', /#vip/);
    });

    it('removes selected members: the confirmation says whose users are deleted for good; the rows go', async () => {
      for (const u of ['bulk.one', 'bulk.two']) {
        const res = await portalJson(p.emu.url, p.token, 'POST', '/v3/accounts/1/members', {
          name: `Bulk ${u}`,
          username: u,
          email: `${u}@acme.example`,
        });
        assert.equal(res.status, 200, JSON.stringify(res.body));
      }
      (await features()).members.refresh();
      const all = await shown();
      const created = all.filter((r) => username(r).startsWith('bulk.'));
      // A member who also belongs to Globex keeps their user.
      const shared = (
        await Promise.all(
          all
            .filter((r) => /^[a-z]+\.[a-z]+$/.test(username(r)))
            .map(async (r) => ({ r, m: await member(username(r)) })),
        )
      ).find((x) => x.m.memberOfMultipleAccounts)?.r;
      assert.ok(shared && created.length === 2);
      const rows = [...created, shared];
      await withUi({ 'members.bulk.confirm': true, 'members.bulk.typeCount': '2' }, async (ui) => {
        await onSelection('portal.member.delete', rows);
        const question = asked(ui, 'members.bulk.confirm');
        assert.match(question, /^Remove 3 members from Acme Corporation\?/);
        assert.match(
          question,
          /2 of them belong to no other organisation, so their users are DELETED FOR GOOD: bulk\.one, bulk\.two\. A snapshot of each is kept first/m,
        );
        assert.deepEqual(told(ui), ['Removed 3 of 3 members.']);
      });
      for (const r of rows) {
        assert.equal(
          (await portalJson(p.emu.url, p.token, 'GET', `/v3/accounts/1/members/${username(r)}`)).status,
          404,
        );
      }
      const after = (await shown()).map(username);
      for (const r of rows) assert.ok(!after.includes(username(r)), `${username(r)} is gone from the view`);
    });
  });

describe('Members: a bulk edit within the request budget', function () {
  this.timeout(180_000);
  let emu: Emulator;
  let portalId: string;

  before(async () => {
    // The portal allows 30 requests in 2 s; the client is told 20, so it must wait rather than meet a 429.
    emu = await startEmulator({ port: 0, seed: 'demo', quiet: true, rateLimit: { count: 30, windowSeconds: 2 } });
    portalId = portalIdOf(emu.url, 'portal');
    const config = vscode.workspace.getConfiguration('portal');
    await config.update('requestBudget.count', 20, vscode.ConfigurationTarget.Global);
    await config.update('requestBudget.windowSeconds', 2, vscode.ConfigurationTarget.Global);
    await setPageSize(100);
    const script = await signInForTest({ baseUrl: emu.url, username: 'demo', password: 'demo' });
    assert.deepEqual(script.failures, []);
  });

  after(async () => {
    const config = vscode.workspace.getConfiguration('portal');
    await config.update('requestBudget.count', undefined, vscode.ConfigurationTarget.Global);
    await config.update('requestBudget.windowSeconds', undefined, vscode.ConfigurationTarget.Global);
    await setPageSize(undefined);
    await stopDemoPortal({ emu, portalId });
  });

  it('tags all 36 members of Acme without one 429', async () => {
    const t = await features();
    t.members.show({ kind: 'account', portalId, accountId: 1, label: 'Acme Corporation' });
    const rows = (
      await loadAll(t.members.provider as unknown as Provider, undefined, 'portal.members.loadMore')
    ).filter((r) => r.contextValue.startsWith('member.'));
    assert.equal(rows.length, 36);
    emu.resetStats();
    await withUi({ 'members.tag.add': 'budget', 'members.bulk.confirm': true }, async (ui) => {
      await onSelection('portal.member.addTag', rows);
      assert.deepEqual(told(ui), ['Tagged 36 of 36 members "budget".']);
    });
    assert.equal(emu.stats().rateLimited, 0, 'no 429');
    assert.equal(emu.stats().byRoute['PATCH /v3/accounts/:account/members/:username'], 36);
  });
});
