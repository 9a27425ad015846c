// "Show Guests and Invitations" on an organisation row: guest shares and pending invitations in words, read-only; a
// portal without the observed endpoints says so once, plainly, and the Explorer keeps working.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Emulator } from '../../../../emulator';
import type { GuestRowValue } from '../../../../../src/features/guests/rows';
import { isLiteral, PROFILES, startDemoPortal, stopDemoPortal } from '../../../support/demoPortal';
import { features, rows, walk, type Provider } from '../../../support/tree';
import { visible, withUi } from '../../../support/ui';

for (const profile of PROFILES)
  describe(`Guests and invitations of an organisation (${profile})`, function () {
    this.timeout(60_000);
    let emu: Emulator;
    let portalId: string;
    let explorer: Provider;
    const literal = isLiteral(profile);

    before(async () => {
      ({ emu, portalId } = await startDemoPortal({ profile }));
      explorer = (await features()).explorer.provider as unknown as Provider;
    });
    after(() => stopDemoPortal({ emu, portalId }));

    /** Runs the command on the organisation's row; the rows the pick offered, by their values. */
    async function show(organisation: string): Promise<{ shown: GuestRowValue[]; told: string[]; asked: string[] }> {
      const row = await walk(explorer, portalId, [organisation]);
      const shown: GuestRowValue[] = [];
      return withUi(
        {
          'guests.list': (v: GuestRowValue) => {
            shown.push(v);
            return shown.length === 1;
          },
        },
        async (ui) => {
          await vscode.commands.executeCommand('portal.account.showGuests', row.node);
          return { shown, told: ui.told.map((t) => visible(t.text)), asked: ui.questions };
        },
        { allUsed: !literal },
      );
    }

    if (literal) {
      it('a portal without guest shares or invitations says so in one message, and nothing else breaks', async () => {
        const { shown, told, asked } = await show('Acme Corporation');
        assert.deepEqual(asked, [], 'no listing is offered');
        assert.deepEqual(shown, []);
        assert.deepEqual(told, [
          'No guests or invitations to show for Acme Corporation: this portal does not offer them.',
        ]);
        const groups = await rows(explorer, (await walk(explorer, portalId, ['Acme Corporation'])).node);
        assert.ok(
          groups.some((g) => g.label === 'Engineering'),
          'the Explorer still lists the groups',
        );
      });
      return;
    }

    it('lists guests (e-mail, what is shared, permission, created, expiry, password) and pending invitations', async () => {
      const { shown, told } = await show('Acme Corporation');
      assert.deepEqual(told, []);
      const headings = shown.filter((v) => v.kind === 'heading').map((v) => v.label);
      assert.deepEqual(headings, ['Guests (4)', 'Pending invitations (2)']);
      const guest = (email: string) => shown.find((v) => v.kind === 'share' && v.label === email);
      const contractor = guest('contractor@devshop.example');
      assert.equal(contractor?.description, 'View and edit');
      assert.match(contractor?.detail ?? '', /shared: .*architecture\.md.* \(as the portal sent it\)/);
      assert.match(contractor?.detail ?? '', /no expiry date · no password$/);
      assert.match(
        guest('agency@brightside.example')?.detail ?? '',
        /expired \d{4}-\d\d-\d\d \d\d:\d\d · password set$/,
      );
      assert.equal(guest('agency@brightside.example')?.description, 'View, download and share');
      assert.match(
        guest('printer@presshouse.example')?.detail ?? '',
        /expires \d{4}-\d\d-\d\d \d\d:\d\d · password set$/,
      );
      assert.equal(guest('auditor@kpmg-audit.example')?.description, 'View only');
      const starter = shown.find((v) => v.kind === 'invitation' && v.label === 'new.starter@acme.example');
      assert.equal(starter?.description, 'Member');
      assert.match(
        starter?.detail ?? '',
        /^groups: Engineering: Standard, Employee Handbook: Basic · sent \d{4}-\d\d-\d\d \d\d:\d\d$/,
      );
      assert.ok(!shown.some((v) => v.label === 'joined.already@acme.example'), 'an accepted invitation is not pending');
      assert.equal(shown.find((v) => v.label === 'Pending invitations (2)')?.description, '1 more no longer pending');
    });

    it('an organisation whose package withholds invitations shows the guests and says invitations are not offered', async () => {
      const { shown } = await show('Globex Research');
      const pending = shown.find((v) => v.kind === 'heading' && v.label === 'Pending invitations');
      assert.equal(pending?.description, 'your sign-in lacks the capability for them here');
      assert.ok(shown.some((v) => v.label === 'Guests (4)'));
    });
  });
