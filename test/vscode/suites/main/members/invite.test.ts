// Invite Members… and the import as invitations, inside VS Code, on both emulator profiles. The confirmation shows
// the plan (who is invited with what, the power an invitation grants, who is left out) and says it cannot be undone
// before anything is sent; each invitation is journaled and the report opened; a run a reload cut off is resumed
// without inviting anyone twice. A literal portal has no invitations: one plain message, nothing sent, and the
// import keeps the new people in the members file to be created.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Emulator } from '../../../../emulator';
import { inviteJournal } from '../../../../../src/engine/invitations/journalSchema';
import { invitationsFolderOf } from '../../../../../src/engine/invitations/run';
import { Journal, readJournal } from '../../../../../src/engine/journalFile';
import { parseMembersFile, valueOf } from '../../../../../src/features/members/plan/core/file/membersFile';
import { isLiteral, PROFILES, startDemoPortal, stopDemoPortal } from '../../../support/demoPortal';
import { portalJson } from '../../../support/portalHttp';
import { features, walk, type Provider } from '../../../support/tree';
import { visible, withUi, type ScriptedUi } from '../../../support/ui';
import { tempDir } from '../../../../support/tempDir';
import { HEADER, MAPPING_ANSWERS } from '../../../support/hrSheet';

const POST_INVITES = 'POST /v3/accounts/:account/invites';

interface Invite {
  targetName: string;
  parameters: string;
  request: { status: string };
}

for (const profile of PROFILES)
  describe(`Members: invitations (${profile})`, function () {
    this.timeout(180_000);
    const literal = isLiteral(profile);
    let emu: Emulator;
    let portalId: string;
    let token: string;
    let dir: string;
    let storage: string;
    let explorer: Provider;
    const ours = () => ({ 'pick.portal': ((id: unknown) => id === portalId) as never });

    before(async () => {
      ({ emu, portalId, token } = await startDemoPortal({ profile }));
      dir = tempDir('portal-invite-');
      const t = await features();
      storage = t.members.plan.storage;
      explorer = t.explorer.provider as unknown as Provider;
    });
    after(async () => {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await stopDemoPortal({ emu, portalId });
      fs.rmSync(dir, { recursive: true, force: true });
    });

    const pending = async (): Promise<Invite[]> => {
      const res = await portalJson<{ items: Invite[] }>(emu.url, token, 'GET', '/v3/accounts/1/invites?size=100');
      return res.body.items.filter((i) => i.request.status === 'NONE');
    };
    const posts = () => emu.stats().byRoute[POST_INVITES] ?? 0;
    const told = (ui: ScriptedUi) => ui.told.map((t) => visible(t.text));
    const confirmText = (ui: ScriptedUi) =>
      visible(ui.asked.find((q) => q.id === 'invite.confirm')?.texts.join('\n') ?? '');

    /** Invite Members… on the organisation's row of the Explorer. */
    async function invite(answers: Record<string, unknown>): Promise<ScriptedUi> {
      const row = await walk(explorer, portalId, ['Acme Corporation']);
      return withUi(answers as never, async (ui) => {
        await vscode.commands.executeCommand('portal.members.invite', row.node);
        return ui;
      });
    }

    if (literal) {
      it('Invite Members… says once, plainly, that this portal has no invitations; nothing is sent', async () => {
        const ui = await invite({
          'invite.addresses': 'lit.one@acme.example',
          'invite.permission': 'Member',
          'invite.groups': () => false,
        });
        assert.deepEqual(told(ui), ['This portal does not offer invitations: nothing was sent.']);
        assert.ok(!ui.questions.includes('invite.confirm'), 'nothing is confirmed, as nothing can be sent');
      });

      it('the import as invitations keeps the new people in the members file, to be created', async () => {
        fs.writeFileSync(path.join(dir, 'lit.csv'), `${HEADER}Lia,Lit,lia.lit@acme.example,Engineering,05/01/2099\r\n`);
        await vscode.window.showTextDocument(vscode.Uri.file(path.join(dir, 'lit.csv')));
        const ui = await withUi(
          { ...MAPPING_ANSWERS, ...ours() },
          async (u) => {
            await vscode.commands.executeCommand('portal.members.importSheetInvite');
            return u;
          },
          { allUsed: false },
        );
        assert.equal(told(ui).filter((t) => /does not offer invitations/.test(t)).length, 1);
        const file = parseMembersFile(fs.readFileSync(path.join(dir, 'lit.members.csv'), 'utf8'));
        assert.deepEqual(
          file.rows.map((r) => valueOf(file, r, 'email')),
          ['lia.lit@acme.example'],
        );
      });
      return;
    }

    it('Invite Members… shows the plan (power named, left out, cannot be undone) before sending, journals each, opens the report', async () => {
      const before = posts();
      const ui = await invite({
        'invite.addresses': 'ivy.admin@acme.example, new.starter@acme.example',
        'invite.permission': 'Member',
        'invite.groups': 'Engineering',
        'invite.level': 'Administrator',
        'invite.confirm': true,
      });
      const detail = confirmText(ui);
      assert.match(detail, /cannot be undone/);
      assert.match(
        detail,
        /ELEVATION: 1 invitations grant more power than a Member has:\n {2}ivy\.admin@acme\.example: Administrator of the group Engineering/,
      );
      assert.match(detail, /To invite \(1\):\n {2}ivy\.admin@acme\.example: Member; Engineering: Administrator/);
      assert.match(
        detail,
        /Left out \(1\):\n {2}new\.starter@acme\.example: an invitation to this address is pending already/,
      );
      assert.equal(posts() - before, 1, 'only the planned invitation is sent');
      const ivy = (await pending()).find((i) => i.targetName === 'ivy.admin@acme.example');
      assert.ok(ivy, 'the invitation is pending on the portal');
      assert.equal((JSON.parse(ivy.parameters) as { mask: number }).mask, 1);
      const report = vscode.window.activeTextEditor?.document;
      assert.match(path.basename(report?.uri.fsPath ?? ''), /^report-.*\.csv$/);
      assert.match(report?.getText() ?? '', /1,ivy\.admin@acme\.example,invite,done,/);
      const applyId = path.basename(report?.uri.fsPath ?? '').replace(/^report-|\.csv$/g, '');
      const record = await readJournal(
        inviteJournal,
        path.join(invitationsFolderOf(storage), 'journal', `${applyId}.jsonl`),
      );
      assert.equal(record.begin.origin, 'invite');
      assert.equal(record.unfinished, false);
      assert.match(told(ui).join(' | '), /Invitations to Acme Corporation: 1 sent\./);
    });

    it('the import as invitations invites the new people with their department’s group and keeps the members already there', async () => {
      const sheet = `${HEADER}Mia,Member,member@acme.example,Social Club,\r\nOla,Invite,ola.invite@acme.example,Engineering,05/01/2099\r\n`;
      fs.writeFileSync(path.join(dir, 'starters.csv'), sheet);
      await vscode.window.showTextDocument(vscode.Uri.file(path.join(dir, 'starters.csv')));
      const ui = await withUi(
        { ...MAPPING_ANSWERS, 'import.usernames': "The e-mail's local part", 'invite.confirm': true, ...ours() },
        async (u) => {
          await vscode.commands.executeCommand('portal.members.importSheetInvite');
          return u;
        },
        { allUsed: false },
      );
      assert.match(confirmText(ui), /To invite \(1\):\n {2}ola\.invite@acme\.example: Member; Engineering: \w+/);
      assert.match(confirmText(ui), /cannot be undone/);
      const ola = (await pending()).find((i) => i.targetName === 'ola.invite@acme.example');
      assert.ok(ola, 'invited');
      const groups = (JSON.parse(ola.parameters) as { groups: Record<string, number> }).groups;
      assert.equal(Object.keys(groups).length, 1);
      const file = parseMembersFile(fs.readFileSync(path.join(dir, 'starters.members.csv'), 'utf8'));
      assert.deepEqual(
        file.rows.map((r) => valueOf(file, r, 'username')),
        ['member'],
        'the file keeps only the member already there',
      );
      assert.match(told(ui).join(' | '), /1 new people were invited instead/);
    });

    it('invitations a reload cut off are resumed: what landed is not sent again', async () => {
      // What a reload leaves: two invitations journaled; the first sent and landed with no outcome written, the
      // second's intent written and its request never sent. No end line.
      const work = [
        { seq: 0, email: 'cut.landed@acme.example', mask: 1, groups: {} },
        { seq: 1, email: 'cut.lost@acme.example', mask: 1, groups: {} },
      ];
      const journal = await Journal.create(inviteJournal, invitationsFolderOf(storage), {
        accountId: 1,
        portalId,
        origin: 'import',
        startedAt: Date.now(),
        title: 'Invite 2 people to Acme Corporation',
        work,
      });
      for (const u of work)
        await journal.append({ type: 'intent', seq: u.seq, before: null, requests: [{ targetName: u.email }] });
      await portalJson(emu.url, token, 'POST', '/v3/accounts/1/invites', {
        targetName: 'cut.landed@acme.example',
        type: 'ACCEPT_DECLINE',
        parameters: JSON.stringify({ mask: 1, groups: {}, extras: {} }),
      });
      await journal.close();
      const before = posts();
      const ui = await withUi({ 'invite.interrupted': 'resume' }, async (u) => {
        await vscode.commands.executeCommand('portal.members.invite.resume');
        return u;
      });
      assert.match(
        visible(ui.asked.find((q) => q.id === 'invite.interrupted')?.texts[0] ?? ''),
        /Invitations to Acme Corporation stopped before they finished .*0 of 2 done/,
      );
      assert.equal(posts() - before, 1, 'only the one that never landed is sent');
      const now = await pending();
      assert.equal(now.filter((i) => i.targetName === 'cut.landed@acme.example').length, 1);
      assert.equal(now.filter((i) => i.targetName === 'cut.lost@acme.example').length, 1);
      const record = await readJournal(inviteJournal, journal.file);
      assert.equal(record.unfinished, false);
      assert.match(record.outcomes.get(0)?.message ?? '', /before the interruption/);
    });
  });
