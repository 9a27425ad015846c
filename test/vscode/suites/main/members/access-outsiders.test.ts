// The access matrix's guests, pending invitations (*Invited*) and sign-ins inside VS Code, on both emulator profiles:
// after the members, the panel reads them within the budget, keeps them in the access store and sends them to the
// page; a literal portal (no such endpoints) gets one plain sentence, and the members' matrix works as ever.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { isLiteral, PROFILES, startDemoPortal, stopDemoPortal, type DemoPortal } from '../../../support/demoPortal';
import { features, type Testing } from '../../../support/tree';
import { waitFor } from '../../../../support/wait';
import { withUi } from '../../../support/ui';
import { tempDir } from '../../../../support/tempDir';

interface OutsiderRowLike {
  readonly kind: string;
  readonly email: string;
  readonly what: string;
  readonly permission: string;
  readonly power: boolean;
  readonly canEdit: boolean;
}

interface OutsidersPost {
  readonly type: 'outsiders';
  readonly rows: readonly OutsiderRowLike[];
  readonly note: string;
  readonly signIns: { readonly known: boolean; readonly last: Record<string, number> };
}

interface MatrixPanelLike {
  readonly session: {
    readonly matrix: { readonly size: number; readCount(): number };
    read(ui: () => unknown): Promise<{ outcome: string } | undefined>;
  };
  readonly panel: vscode.WebviewPanel;
  onDidPost(listener: (m: { type: string; [k: string]: unknown }) => void): vscode.Disposable;
  exportCsv(view: object, others?: object): Promise<number | undefined>;
  dispose(): void;
}

for (const profile of PROFILES)
  describe(`Members: access matrix guests and invitations (${profile})`, function () {
    this.timeout(180_000);
    let p: DemoPortal;
    let t: Testing;

    before(async () => {
      p = await startDemoPortal({ profile });
      t = await features();
    });
    after(async () => {
      t.members.access.panels.dispose();
      await t.members.access.sessions.forget();
      await stopDemoPortal(p);
    });

    it('shows the guests and an Invited row after the members, or on a literal portal one plain sentence', async () => {
      t.members.show({ kind: 'account', portalId: p.portalId, accountId: 1, label: 'Acme Corporation' });
      const file = path.join(tempDir('outsiders-'), 'acme.csv');
      await withUi({ 'access.export.file': file }, async (ui) => {
        const panel = (await vscode.commands.executeCommand('portal.access.openMatrix')) as MatrixPanelLike;
        const posts: OutsidersPost[] = [];
        let memberRows = 0;
        const sub = panel.onDidPost((m) => {
          if (m.type === 'outsiders') posts.push(m as unknown as OutsidersPost);
          if (m.type === 'rows') memberRows += (m.rows as unknown[]).length;
        });
        try {
          p.emu.resetStats();
          const result = await panel.session.read(() => ui);
          assert.equal(result?.outcome, 'done');
          panel.panel.reveal(vscode.ViewColumn.One);
          // The page is sent what the store holds once it says it is ready, and again when a read brings more.
          await waitFor(
            () => posts.some((m) => (isLiteral(profile) ? m.note !== '' : m.rows.length > 0 && m.signIns.known)),
            'the page was sent the guests and invitations',
          );
          const last = posts[posts.length - 1];
          assert.ok(last);
          // The members' matrix works on both profiles.
          await waitFor(() => memberRows >= panel.session.matrix.size, 'the page got every member');
          assert.equal(panel.session.matrix.readCount(), panel.session.matrix.size);
          if (isLiteral(profile)) {
            assert.deepEqual(last.rows, []);
            assert.equal(
              last.note,
              'Guests, invitations and sign-ins are not shown: this portal does not offer them; last active is shown instead.',
            );
            assert.equal(last.signIns.known, false);
          } else {
            assert.equal(last.note, '');
            const guests = last.rows.filter((r) => r.kind === 'guest');
            const invited = last.rows.filter((r) => r.kind === 'invited');
            assert.equal(guests.length, 4);
            const contractor = guests.find((g) => g.email === 'contractor@devshop.example');
            assert.equal(contractor?.what, 'Engineering / docs/architecture.md');
            assert.equal(contractor?.canEdit, true);
            assert.deepEqual(invited.map((r) => r.email).sort(), [
              'board.observer@acme.example',
              'new.starter@acme.example',
            ]);
            assert.equal(invited.find((r) => r.email === 'board.observer@acme.example')?.power, true);
            assert.ok((last.signIns.last.demo ?? 0) > 0, 'demo signed in');
            // One request a page for each (none when the store held them fresh), within the budget.
            const byRoute = p.emu.stats().byRoute;
            for (const route of ['GET /v3/shares', 'GET /v3/accounts/:account/invites', 'GET /v3/audit'])
              assert.ok((byRoute[route] ?? 0) <= 1, `${route}: ${byRoute[route]}`);
          }
          // The page's export writes the guests and invitations its filters show, after the members.
          const written = await panel.exportCsv({}, { kind: 'invited' });
          const text = fs.readFileSync(file, 'utf8');
          assert.equal(written, panel.session.matrix.size);
          if (isLiteral(profile))
            assert.match(text, /Guests and invitations are not shown: this portal does not offer them/);
          else assert.equal(text.split('\r\n').filter((l) => l.startsWith('Invited,')).length, 2);
        } finally {
          sub.dispose();
          panel.dispose();
        }
      });
    });
  });
