import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { startEmulator, type Emulator } from '../../../emulator';
import { portalIdOf } from '../../../../src/auth/portalEntry';
import { PROFILES, startDemoPortal, stopDemoPortal } from '../../support/demoPortal';
import { portalApi, signInForTest } from '../../support/extension';
import { passwordToken, portalJson } from '../../support/portalHttp';
import { byLabel, features, loadAll, rows, setPageSize, walk, type Provider } from '../../support/tree';
import { withUi } from '../../support/ui';

interface MemberJson { user: { username: string; name: string; enabled: boolean; locked: boolean }; tags: string[] }
interface Envelope { items: MemberJson[]; totalResults: number }

/** Searches the Members view as a person does: the search box, answered. */
const search = (text: string) => withUi({ 'members.search': text }, () => vscode.commands.executeCommand('portal.members.search'));
const clearFilter = () => vscode.commands.executeCommand('portal.members.clearFilter');
const description = async () => (await features()).members.view.description ?? '';

for (const profile of PROFILES) describe(`Members view (${profile})`, function () {
  this.timeout(60_000);
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
    const engineering = await walk(t.explorer.provider as unknown as Provider, portalId, ['Acme Corporation', 'Engineering']);
    await t.explorer.view.reveal(engineering.node as never, { select: true, focus: true });
    for (let i = 0; i < 50 && t.members.snapshot().account?.accountId !== 1; i++) await new Promise((r) => setTimeout(r, 100));
    assert.equal(t.members.snapshot().account?.accountId, 1);
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
    await search('xss');
    const xss = (await rows(members))[0];
    assert.equal(xss?.label, '<img src=x onerror=alert(1)>', 'server text is shown as text');
  });

  it('pages through every member with "Load more…", never duplicating or skipping, even when rows shift', async () => {
    await clearFilter();
    (await features()).members.refresh();
    await rows(members);
    // A member whose name sorts first joins between two pages: every later row shifts by one.
    const created = await portalJson(emu.url, token, 'POST', '/v3/accounts/1/members', {
      name: 'Aaron Aardvark', username: 'aaron.aardvark', email: 'aaron@acme.example', password: 'Aardvark-123', enabled: true,
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const loaded = await loadAll(members, undefined, 'portal.members.loadMore');
    const usernames = loaded.map((r) => r.description.split(' · ')[0]);
    assert.equal(new Set(usernames).size, usernames.length, 'no member shown twice');
    for (const m of all) assert.ok(usernames.includes(m.user.username), `${m.user.username} is listed`);
    // Compare with the portal's own full list now.
    const now = await allMembers();
    assert.deepEqual(new Set(usernames.filter((u) => u !== 'aaron.aardvark')), new Set(all.map((m) => m.user.username)));
    assert.equal(now.length, all.length + 1);
  });

  it('searches on the portal: a member on page 3 is found at once, also with "^" for starts-with', async () => {
    const byName = await allMembers('&orderBy=name');
    const target = byName[12];
    assert.ok(target, 'a member on page 3 (page size 5)');
    emu.resetStats();
    await search(target.user.username);
    const found = await rows(members);
    assert.ok(found.some((r) => r.label === target.user.name), found.map((r) => r.label).join(', '));
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
    await withUi({ 'members.tags': (tag: string) => tag === 'support' }, () => vscode.commands.executeCommand('portal.members.filterByTag'));
    const list = await loadAll(members, undefined, 'portal.members.loadMore');
    assert.deepEqual(list.map((r) => r.label).sort(), tagged.map((m) => m.user.name).sort());
    assert.match(await description(), /tagged #support/);
    await vscode.commands.executeCommand('portal.members.clearFilter');
  });

  it('sorts on the portal', async () => {
    await withUi({ 'members.order': 'E-mail' }, () => vscode.commands.executeCommand('portal.members.sort'));
    const firstPage = (await rows(members)).filter((r) => r.contextValue.startsWith('member.'));
    const expected = (await allMembers('&orderBy=email')).slice(0, 5).map((m) => m.user.name);
    assert.deepEqual(firstPage.map((r) => r.label), expected);
    await vscode.commands.executeCommand('portal.members.clearFilter');
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
    const answers = { 'member.delete.confirm': [true, true], 'member.delete.typeUsername': ['aaron', 'aaron.aardvark'] };
    await withUi(answers, async (ui) => {
      assert.equal(await vscode.commands.executeCommand('portal.member.delete', aaron?.node), undefined, 'a wrong username ends the command quietly');
      const [confirm, typed] = ui.asked.filter((q) => q.kind !== 'progress');
      assert.match(confirm?.texts.join('\n') ?? '', /DELETED FOR GOOD: it cannot be restored/);
      assert.match(typed?.texts.join('\n') ?? '', /Type the username "aaron\.aardvark"/);
      assert.deepEqual(ui.refused.map((r) => r.problem), ['Type the username exactly as shown.']);
      assert.equal(await vscode.commands.executeCommand('portal.member.delete', aaron?.node), true);
    });
    const res = await portalJson(emu.url, token, 'GET', '/v3/accounts/1/members/aaron.aardvark');
    assert.equal(res.status, 404);
    assert.deepEqual((await rows(members)).map((r) => r.contextValue), ['empty']);
    await clearFilter();
  });
});

for (const profile of PROFILES) describe(`Members view: a long list (${profile})`, function () {
  this.timeout(120_000);
  let emu: Emulator;
  let portalId: string;

  before(async () => {
    emu = await startEmulator({ port: 0, seed: 'large', profile, quiet: true, large: { members: 697, files: 10, groups: 2, folderDepth: 1 } });
    portalId = portalIdOf(emu.url, 'portal');
    const script = await signInForTest({ baseUrl: emu.url, username: 'demo', password: 'demo' });
    assert.deepEqual(script.failures, []);
    await setPageSize(100);
  });

  after(async () => {
    await setPageSize(undefined);
    const api = await portalApi();
    if (api.registry.get(portalId)) await api.registry.remove(portalId);
    await emu.stop();
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
    assert.deepEqual(top.filter((r) => r.contextValue === 'range').map((r) => r.label), ['1–100', '101–200', '201–300', '301–400', '401–500', '501–600']);
    assert.equal(top.filter((r) => r.contextValue.startsWith('member.')).length, 100, 'only the last rows are flat');
    const token = await passwordToken(emu.url, 'demo', 'demo');
    const res = await portalJson<{ items: Array<{ user: { username: string } }> }>(emu.url, token, 'GET', '/v3/accounts/1/members?page=1&size=100&orderBy=name');
    assert.deepEqual(usernames.slice(0, 100), res.body.items.map((m) => m.user.username), 'the first range holds the first page, in order');
  });
});
