// A tour of the extension in the pseudo locale: every text it shows (questions, messages, rows, tooltips, form titles,
// documents) must read pseudo-localised once the server's own strings are taken out. English left over is a string
// that never went through vscode.l10n.t or l10n.t.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { startEmulator, type Emulator } from '../../../emulator';
import { portalIdOf } from '../../../../src/auth/portalEntry';
import type { FormPanel } from '../../../../src/forms/formPanel';
import type { RecordState } from '../../../../src/features/records/documents/page/record.protocol';
import { portalApi, signInForTest } from '../../support/extension';
import { lastPosted, openForm } from '../../support/forms';
import { passwordToken, portalJson } from '../../support/portalHttp';
import { englishLeft } from '../../support/pseudo';
import { features, nodeOf, rows, tooltipOf, type Provider, type Row } from '../../support/tree';
import { DISMISS, withUi, type Answers, type ScriptedUi } from '../../support/ui';
import { waitFor } from '../../../support/wait';

/** Every string anywhere in a JSON answer. */
function strings(value: unknown, out: Set<string>): void {
  if (typeof value === 'string') {
    out.add(value);
    // Lists sent as one string ("docs,onboarding") are shown item by item.
    for (const part of value.split(',')) out.add(part.trim());
  }
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (typeof value === 'object' && value !== null) for (const v of Object.values(value)) strings(v, out);
}

/** What the demo portal itself says (names, usernames, e-mails, file names, tags, plan codes…): not ours to translate. */
async function serverText(url: string): Promise<string[]> {
  const token = await passwordToken(url, 'demo', 'demo');
  const out = new Set<string>([url]);
  const read = async (path: string): Promise<unknown> => (await portalJson<unknown>(url, token, 'GET', path)).body;
  const accounts = (await read('/v3/accounts')) as Array<{ id: number }>;
  strings(accounts, out);
  strings(await read('/v3/userinfo'), out);
  strings(await read('/v3/applications'), out);
  for (const { id } of accounts) {
    const groups = (await read(`/v2/accounts/${id}/groups`)) as Array<{ id: number }>;
    strings(groups, out);
    for (const path of ['members?page=1&size=100', 'member-tags', 'subscription', 'components']) strings(await read(`/v3/accounts/${id}/${path}`), out);
    strings(await read(`/v2/accounts/${id}/custom`), out);
    // v2's users carry what v3's do not (the two-factor mode a member tooltip shows).
    strings(await read(`/v2/accounts/${id}/members?page=1&size=100`), out);
    for (const g of groups) {
      const files = (await read(`/v2/accounts/${id}/groups/${g.id}/files?page=1&size=100&recursive=true`)) as unknown;
      strings(files, out);
      // A record's own answer has more of the portal's words (description, uploader) than the list.
      const list = (Array.isArray(files) ? files : ((files as { items?: unknown; page?: unknown }).items ?? (files as { page?: unknown }).page)) as Array<{ id: number }> | undefined;
      for (const f of (Array.isArray(list) ? list : []).slice(0, 20)) strings(await read(`/v2/accounts/${id}/groups/${g.id}/files/${f.id}`), out);
    }
  }
  return [...out];
}

describe('pseudo locale: a tour of the extension', function () {
  this.timeout(120_000);
  let emu: Emulator;
  let portalId: string;
  /** Every text collected on the tour, with where it came from. */
  const seen: Array<{ where: string; text: string }> = [];
  const see = (where: string, text: string | undefined) => {
    if (text) seen.push({ where, text });
  };
  const seeUi = (where: string, ui: ScriptedUi) => {
    for (const q of ui.asked) for (const t of q.texts) see(`${where}: ${q.id}`, t);
    for (const t of ui.told) see(`${where}: ${t.severity}`, t.text);
  };
  const seeRows = async (where: string, provider: Provider, list: Row[]) => {
    for (const r of list) {
      see(`${where} label`, r.label);
      see(`${where} description`, r.description);
      see(`${where} tooltip`, await tooltipOf(provider, r));
    }
  };

  before(async () => {
    emu = await startEmulator({ port: 0, seed: 'demo', quiet: true });
    portalId = portalIdOf(emu.url, 'portal');
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const api = await portalApi();
    for (const p of api.testing.forms.panels()) p.dispose();
    if (api.registry.get(portalId)) await api.registry.remove(portalId);
    await emu.stop();
  });

  it('signs in, with every question in the pseudo locale', async () => {
    const script = await signInForTest({ baseUrl: emu.url, username: 'demo', password: 'demo' });
    assert.deepEqual(script.failures, []);
    seeUi('sign-in', script.ui);
    assert.ok(seen.length >= 4, 'the sign-in asked its questions');
  });

  it('walks the Explorer, the Members and the Applications views', async () => {
    const t = await features();
    const explorer = t.explorer.provider as unknown as Provider;
    const portals = await rows(explorer);
    await seeRows('explorer', explorer, portals.filter((r) => r.id.endsWith(portalId)));
    const accounts = await rows(explorer, portals.find((r) => r.id.endsWith(portalId))?.node);
    await seeRows('explorer', explorer, accounts);
    for (const account of accounts.slice(0, 2)) {
      const groups = await rows(explorer, account.node);
      await seeRows('explorer', explorer, groups);
      for (const group of groups.slice(0, 2)) await seeRows('explorer', explorer, await rows(explorer, group.node));
    }
    t.members.show({ kind: 'account', portalId, accountId: 1, label: 'Acme Corporation' });
    const members = t.members.provider as unknown as Provider;
    await seeRows('members', members, await rows(members));
    see('members description', t.members.view.description);
    const applications = t.applications.provider as unknown as Provider;
    const portal = (await rows(applications)).find((r) => r.id.endsWith(portalId));
    await seeRows('applications', applications, await rows(applications, portal?.node));
    assert.ok(seen.length > 60, `${seen.length} texts read`);
  });

  it('searches, filters by tag and orders the Members view; dismisses a removal, a trash and a download', async () => {
    const file = await nodeOf({ kind: 'group', portalId, accountId: 1, groupId: 101 });
    const readme = (await rows((await features()).explorer.provider as unknown as Provider, file)).find((r) => r.label === 'README.md');
    const member = await nodeOf({ kind: 'member', portalId, accountId: 1, username: 'member' });
    const answers: Answers = {
      'members.search': 'a', 'members.tags': (tag: { name?: string }) => tag.name === 'support', 'members.order': 1,
      'member.delete.confirm': false, 'group.trash': false, 'download.folder': DISMISS,
    };
    const ui = await withUi(answers, async (scripted) => {
      for (const command of ['portal.members.search', 'portal.members.filterByTag', 'portal.members.sort']) {
        await vscode.commands.executeCommand(command);
        see('members description', (await features()).members.view.description);
      }
      await vscode.commands.executeCommand('portal.member.delete', member);
      await vscode.commands.executeCommand('portal.group.trash', file);
      await vscode.commands.executeCommand('portal.file.download', readme?.node);
      return scripted;
    });
    seeUi('commands', ui);
    assert.deepEqual(ui.questions, ['members.search', 'members.tags', 'members.order', 'member.delete.confirm', 'group.trash', 'download.folder']);
    await vscode.commands.executeCommand('portal.members.clearFilter');
  });

  it('opens every form: each gets the strings of the pseudo locale, and its title is pseudo', async () => {
    const account = await nodeOf({ kind: 'account', portalId, accountId: 1 });
    const group = await nodeOf({ kind: 'group', portalId, accountId: 1, groupId: 101 });
    const member = await nodeOf({ kind: 'member', portalId, accountId: 1, username: 'member' });
    const portal = await nodeOf({ kind: 'portal', portalId, view: 'applications' });
    const forms: Array<[string, unknown]> = [
      ['portal.accountOverview', account], ['portal.editGroup', group], ['portal.createGroup', account],
      ['portal.editMember', member], ['portal.createMember', account], ['portal.editMemberAssignments', member],
      ['portal.createApplication', portal],
    ];
    for (const [command, row] of forms) {
      const panel = await openForm<FormPanel>(command, row);
      await panel.handleMessage({ type: 'ready' });
      const init = lastPosted<{ l10n: Record<string, string> | null }>(panel, 'init');
      assert.ok(init?.l10n && Object.keys(init.l10n).length > 100, `${command}: the page gets the pseudo strings`);
      see(`${command} title`, panel.panel.title);
      panel.dispose();
    }
  });

  it('opens the documents of a record, a group, an organisation and an application', async () => {
    const group = await nodeOf({ kind: 'group', portalId, accountId: 1, groupId: 101 });
    const readme = (await rows((await features()).explorer.provider as unknown as Provider, group)).find((r) => r.label === 'README.md');
    const app = (await rows((await features()).applications.provider as unknown as Provider, await nodeOf({ kind: 'portal', portalId, view: 'applications' })))[0];
    await vscode.commands.executeCommand('portal.file.openRecord', readme?.node);
    const page = (await features()).forms.panels().find((p) => p.kind === 'record');
    assert.ok(page, 'the record page opened');
    await page.whenLoaded();
    await page.handleMessage({ type: 'ready' });
    const state = lastPosted<{ state: RecordState }>(page, 'init')?.state;
    see('portal.file.openRecord page', state?.summary);
    for (const section of [...(state?.sections ?? []), ...(state ? [state.details] : [])]) {
      see('portal.file.openRecord page', section.title);
      for (const [label, value] of section.rows) see('portal.file.openRecord page', `${label}: ${value}`);
    }
    page.dispose();
    for (const [command, row] of [
      ['portal.group.details', group],
      ['portal.account.details', await nodeOf({ kind: 'account', portalId, accountId: 1 })], ['portal.application.details', app?.node],
    ] as const) {
      await vscode.commands.executeCommand(command, row);
      see(`${command} document`, vscode.window.activeTextEditor?.document.getText());
    }
  });

  it('disables two members in bulk, one refused by the portal: the question, progress, summary and the API\'s error', async () => {
    const acme = { kind: 'account' as const, portalId, accountId: 1, label: 'Acme Corporation' };
    (await features()).members.show(acme);
    const members = (await features()).members.provider as unknown as Provider;
    const picked = (await rows(members)).filter((r) => r.contextValue === 'member.enabled').slice(0, 2);
    assert.equal(picked.length, 2, 'two enabled members to disable');
    // A 403 without a body: the message is all the client's own words (the API layer's), none of the portal's.
    emu.setFaults([{ kind: 'error-body', status: 403, shape: 'empty', count: 1, method: 'PATCH', path: '/v3/accounts/1/members/' }]);
    const ui = await withUi({ 'members.bulk.confirm': true, 'members.bulk.summary': DISMISS }, async (scripted) => {
      await vscode.commands.executeCommand('portal.member.disable', picked[0]?.node, picked.map((r) => r.node));
      return scripted;
    });
    emu.clearFaults();
    seeUi('bulk edit', ui);
    const texts = [...ui.told.map((t) => t.text), ...ui.asked.flatMap((q) => q.texts)];
    assert.ok(texts.some((t) => t.includes(': ') && t.length > 40), `the refusal is shown: ${JSON.stringify(texts)}`);
    // The one that went through is enabled again, for the tests after this one.
    const undo = await withUi({ 'members.bulk.confirm': true }, async (scripted) => {
      await vscode.commands.executeCommand('portal.member.enable', picked[0]?.node, picked.map((r) => r.node));
      return scripted;
    });
    seeUi('bulk edit', undo);
  });

  it('says an error the portal sends without words in the pseudo locale', async () => {
    const group = await nodeOf({ kind: 'group', portalId, accountId: 1, groupId: 101 });
    emu.setFaults([{ kind: 'error-body', status: 409, shape: 'empty', count: 1, path: '/v2/accounts/1/groups/101/duplicate' }]);
    const ui = await withUi({ 'group.duplicate.name': 'x' }, async (scripted) => {
      await vscode.commands.executeCommand('portal.group.duplicate', group);
      return scripted;
    });
    emu.clearFaults();
    seeUi('conflict', ui);
    assert.ok(ui.told.some((t) => t.severity === 'error'), `an error is shown: ${JSON.stringify(ui.told)}`);
  });

  it('says a signed-out portal\'s error in the pseudo locale, with its button', async () => {
    const group = await nodeOf({ kind: 'group', portalId, accountId: 1, groupId: 102 });
    const api = await portalApi();
    const stored = await api.testing.readStoredCredentials(portalId);
    await api.registry.signOut(portalId);
    const ui = await withUi({ 'group.duplicate.name': 'x', 'error.signedOut': DISMISS }, async (scripted) => {
      await vscode.commands.executeCommand('portal.group.duplicate', group);
      await waitFor(() => scripted.questions.includes('error.signedOut'), 'the error is shown');
      return scripted;
    });
    seeUi('signed out', ui);
    if (stored) await api.testing.storeCredentials(portalId, stored);
  });

  it('everything read on the tour is pseudo-localised', async () => {
    assert.ok(seen.length > 100, `${seen.length} texts`);
    // Read last: the application this window registered at sign-in is the portal's text too. An example address
    // is shown as an example, not as words; the listed portals' own addresses and the default service's id ("portal",
    // which the user would type as it is) are values, not words.
    const loopbackAddresses = seen.flatMap((s) => s.text.match(/https?:\/\/127\.0\.0\.1:\d+/g) ?? []);
    // Platforms' own names are not translated (applicationWords.ts).
    const brands = ['iOS', 'Android', 'Linux', 'Windows'];
    const allowed = [
      ...(await serverText(emu.url)),
      'https://portal.example.com',
      ...loopbackAddresses,
      '"portal"',
      ...brands,
    ];
    const english = seen.map((s) => ({ ...s, left: englishLeft(s.text, allowed) })).filter((s) => s.left.length > 0);
    assert.deepEqual(english.map((s) => `${s.where}: ${s.left.join(' ')} in ${JSON.stringify(s.text)}`), [], `${english.length} of ${seen.length} texts hold English`);
  });
});
