// The plan tells the whole truth about power and about Undo, inside VS Code: a Super administrator's e-mail changed to
// an outside address is a change that grants power in the Problems panel (once the plan has read the portal) and in
// the Apply confirmation; a removal whose user lives on in another organisation is named as one Undo cannot put
// back; and deleting one user for good is asked for in the singular. Checked on the portal over HTTP.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { type DemoPortal } from '../../../support/demoPortal';
import { deleteRow, eventually, setCell } from '../../../support/membersFile';
import { portalJson } from '../../../support/portalHttp';
import { features } from '../../../support/tree';
import { exportWithGroups, useAcmeMembers } from '../../../support/membersView';
import { visible, withUi, type ScriptedUi } from '../../../support/ui';

const asked = (ui: ScriptedUi, id: string): string =>
  visible(ui.asked.find((q) => q.id === id)?.texts.join('\n') ?? '');

describe('Members: power and Undo, told before Apply', function () {
  this.timeout(90_000);
  let p: DemoPortal;
  let dir: string;

  useAcmeMembers('portal-power-', { profile: 'default' }, (s) => ({ p, dir } = s));

  it("an administrator's new e-mail grants power; a lasting removal cannot be undone; one deletion is singular", async () => {
    const { doc } = await exportWithGroups(dir, 'power.csv');
    // alice.andersen is a Super administrator; alice.muller belongs to globex too; chloe.okafor to acme alone.
    await setCell(doc, 'alice.andersen', 'email', 'alice@outside.example');
    await deleteRow(doc, 'alice.muller');
    await deleteRow(doc, 'chloe.okafor');
    await withUi({ 'plan.absent': 'Remove them from the organisation' } as never, () =>
      vscode.commands.executeCommand('portal.plan.planChanges'),
    );
    const { store } = (await features()).members.plan;
    assert.ok(store.plan, 'a plan is on show');

    const problems = await eventually(
      () => vscode.languages.getDiagnostics(doc.uri),
      (d) => d.some((x) => x.code === 'elevation'),
      "the administrator's new e-mail is reported once the portal is read",
    );
    const power = problems.find((x) => x.code === 'elevation');
    assert.equal(power?.severity, vscode.DiagnosticSeverity.Warning);
    assert.match(power?.message ?? '', /This row grants an administrator's sign-in: their e-mail changes/);
    assert.equal(doc.getText(power?.range), 'alice@outside.example', 'at the e-mail cell');

    const ui = await withUi(
      { 'plan.apply.confirm': true, 'plan.snapshot.folder': dir, 'plan.apply.typeCount': '2' } as never,
      async (u) => {
        await vscode.commands.executeCommand('portal.plan.apply');
        return u;
      },
    );
    const confirm = asked(ui, 'plan.apply.confirm');
    assert.match(confirm, /Changes that grant more power: 1\n\s+alice\.andersen: an administrator's sign-in/);
    assert.match(confirm, /CANNOT BE UNDONE: 1 removal\./);
    assert.match(confirm, /Undo puts the other changes back/);
    assert.doesNotMatch(confirm, /Undo puts them back/);
    const typed = asked(ui, 'plan.apply.typeCount');
    assert.match(typed, /1 user will be deleted for good\. Type 1 to confirm\./);
    assert.match(typed, /Type the number 1\./, 'the mistyped answer is told in the singular too');
    const alice = await portalJson(p.emu.url, p.token, 'GET', '/v3/accounts/1/members/alice.andersen');
    assert.equal((alice.body as { user: { email: string } }).user.email, 'alice.andersen@acme.example', 'nothing sent');
  });

  it('an apply whose only change is a removal Undo cannot put back offers no Undo', async () => {
    const { doc } = await exportWithGroups(dir, 'lasting.csv');
    await deleteRow(doc, 'bruno.dubois'); // also a member of globex: their user stays
    await withUi({ 'plan.absent': 'Remove them from the organisation' } as never, () =>
      vscode.commands.executeCommand('portal.plan.planChanges'),
    );
    const ui = await withUi({ 'plan.apply.confirm': true } as never, async (u) => {
      await vscode.commands.executeCommand('portal.plan.apply');
      return u;
    });
    assert.match(asked(ui, 'plan.apply.confirm'), /CANNOT BE UNDONE: 1 removal\./);
    const gone = await portalJson(p.emu.url, p.token, 'GET', '/v3/accounts/1/members/bruno.dubois');
    assert.equal(gone.status, 404, 'removed');
    const done = ui.asked.find((q) => q.id === 'plan.apply.done');
    assert.ok(done, 'the summary was shown');
    assert.ok(!done.texts.includes('Undo'), `no Undo offered: ${done.texts.join(' | ')}`);
  });
});
