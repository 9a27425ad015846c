// Who Can Reach This… on a folder and a file row of the Explorer, on both emulator profiles: the group's members with
// their level in it, the record's member permission as the portal states it, and the guests whose share names the
// record, or (on a folder) a file inside it; a portal without guest shares says so in one row, and the rest is shown.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Emulator } from '../../../../emulator';
import type { ReachRowValue } from '../../../../../src/features/explorer/whoCanReach';
import { isLiteral, PROFILES, startDemoPortal, stopDemoPortal } from '../../../support/demoPortal';
import { features, walk, type Provider } from '../../../support/tree';
import { visible, withUi } from '../../../support/ui';

for (const profile of PROFILES)
  describe(`Explorer: Who Can Reach This… (${profile})`, function () {
    this.timeout(120_000);
    const literal = isLiteral(profile);
    let emu: Emulator;
    let portalId: string;
    let explorer: Provider;

    before(async () => {
      ({ emu, portalId } = await startDemoPortal({ profile }));
      explorer = (await features()).explorer.provider as unknown as Provider;
    });
    after(() => stopDemoPortal({ emu, portalId }));

    /** The rows the pick offered, as text a person reads, for the row at `labels`. */
    async function reach(labels: string[]): Promise<{ shown: ReachRowValue[]; told: string[] }> {
      const row = await walk(explorer, portalId, labels);
      const shown: ReachRowValue[] = [];
      return withUi(
        {
          'whoCanReach.list': (v: ReachRowValue) => {
            shown.push({ ...v, label: visible(v.label), description: visible(v.description) });
            // The first row is chosen, which only closes the pick.
            return shown.length === 1;
          },
        } as never,
        async (ui) => {
          await vscode.commands.executeCommand('portal.explorer.whoCanReach', row.node);
          return { shown, told: ui.told.map((t) => visible(t.text)) };
        },
        { allUsed: false },
      );
    }

    it('on a folder: the group’s members with their level, the member permission in words, the guests', async () => {
      const { shown, told } = await reach(['Acme Corporation', 'Engineering', 'docs']);
      assert.deepEqual(told, []);
      const rights = shown.find((v) => v.kind === 'rights');
      assert.match(rights?.label ?? '', /^Member permission: /);
      assert.match(rights?.description ?? '', /^Shared with: /);
      const heading = shown.find((v) => v.kind === 'heading' && v.label.startsWith('Members of Engineering'));
      const members = shown.filter((v) => v.kind === 'member');
      assert.equal(heading?.label, `Members of Engineering (${members.length})`);
      assert.ok(members.length > 0, 'the group has members');
      assert.ok(members.every((m) => ['Basic', 'Standard', 'Administrator'].includes(m.description)));
      const guests = shown.find((v) => v.kind === 'heading' && v.label.startsWith('Guests with a share of it'));
      assert.ok(guests, 'the guests have their heading');
      if (literal) assert.equal(guests.description, 'this portal does not offer guest shares');
      else assert.equal(guests.label, 'Guests with a share of it (0)');
      // A guest with a share of a file inside the folder reaches it too, and the row says which file.
      const inside = shown.find((v) => v.kind === 'heading' && v.label.startsWith('Guests with a share of a file in'));
      if (literal) {
        assert.equal(inside, undefined, 'the portal\u2019s refusal is said once, above');
        assert.deepEqual(
          shown.filter((v) => v.kind === 'guest'),
          [],
        );
        return;
      }
      assert.equal(inside?.label, 'Guests with a share of a file in it (1)');
      assert.deepEqual(
        shown.filter((v) => v.kind === 'guest').map((g) => [g.label, g.description, g.detail]),
        [['contractor@devshop.example', 'View and edit', 'in docs/architecture.md · no expiry date · no password']],
      );
    });

    it('on a file a guest holds a share of: that guest, with the share’s permission in words', async () => {
      const { shown } = await reach(['Acme Corporation', 'Engineering', 'docs', 'architecture.md']);
      const guests = shown.filter((v) => v.kind === 'guest');
      if (literal) {
        assert.deepEqual(guests, []);
        return;
      }
      assert.deepEqual(
        guests.map((g) => [g.label, g.description]),
        [['contractor@devshop.example', 'View and edit']],
      );
      assert.match(guests[0]?.detail ?? '', /no expiry date · no password/);
    });
  });
