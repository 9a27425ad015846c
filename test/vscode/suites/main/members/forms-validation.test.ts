// New Member checks every field on the first Save, before the portal: one answer names each bad field with its own
// message, and the emulator sees no request. Closing a form with unsaved changes asks first; a tab closed by its ×,
// which VS Code lets no one stop, is offered back with its input.
import assert from 'node:assert/strict';
import type { FormPanel } from '../../../../../src/forms/formPanel';
import type { MemberFormState, MemberValues } from '../../../../../src/features/members/forms/member.protocol';
import { lastPosted, openForm, postedTypes, useFormsFixture, type FormsFixture } from '../../../support/forms';
import { eventually } from '../../../support/membersFile';
import { features, nodeOf } from '../../../support/tree';
import { withUi } from '../../../support/ui';

const DAY = 24 * 60 * 60 * 1000;

describe('Forms: New Member checks every field in one round, and Close asks before unsaved changes are lost', function () {
  this.timeout(180_000);
  let f: FormsFixture;
  useFormsFixture((x) => (f = x));

  const newMember = async () =>
    openForm<FormPanel<MemberFormState, MemberValues>>(
      'portal.createMember',
      await nodeOf({ kind: 'account', portalId: f.portalId, accountId: f.acme }),
    );

  it('reports every bad field on the first Save, each under its field, with no request sent', async () => {
    const panel = await newMember();
    const state = await panel.whenLoaded();
    f.emu.resetStats();
    await panel.handleMessage({
      type: 'save',
      values: {
        ...state.values,
        username: 'bad name!',
        name: '',
        email: 'not-an-address',
        activation: 'date',
        activationDate: Date.now() - DAY,
      },
    });
    const failed = lastPosted<{ fieldErrors?: Array<{ field: string; message: string }> }>(panel, 'failed');
    assert.ok(failed, postedTypes(panel).join());
    assert.deepEqual(
      failed.fieldErrors?.map((e) => e.field),
      ['username', 'name', 'email', 'activationDate'],
      'one message per bad field, all at once',
    );
    for (const e of failed.fieldErrors ?? []) assert.ok(e.message.length > 0, `${e.field} has a message`);
    assert.match(failed.fieldErrors?.[0]?.message ?? '', /2 to 64 letters/);
    assert.match(failed.fieldErrors?.[2]?.message ?? '', /e-mail address such as/);
    assert.equal(f.emu.stats().requests, 0, 'nothing reached the portal');
  });

  it('asks before Close discards unsaved changes; closes once the user agrees', async () => {
    const panel = await newMember();
    await panel.whenLoaded();
    await panel.handleMessage({ type: 'dirty', dirty: true });
    await withUi({ 'form.close.unsaved': false }, async (ui) => {
      await panel.handleMessage({ type: 'close' });
      assert.deepEqual(ui.questions, ['form.close.unsaved']);
    });
    assert.equal(panel.isDisposed, false, 'kept open: the user said no');
    await withUi({ 'form.close.unsaved': true }, () => panel.handleMessage({ type: 'close' }));
    assert.equal(panel.isDisposed, true);
  });

  it('closes at once when nothing is unsaved', async () => {
    const panel = await newMember();
    await panel.whenLoaded();
    await withUi({}, () => panel.handleMessage({ type: 'close' }));
    assert.equal(panel.isDisposed, true);
  });

  it("closed by its tab's × with unsaved input: offered back, it reopens with that input but never the password", async () => {
    const panel = await newMember();
    const state = await panel.whenLoaded();
    const typed = { ...state.values, username: 'half.done', name: 'Half Done', email: 'half@example.com' };
    await panel.handleMessage({ type: 'dirty', dirty: true, values: { ...typed, password: 'S3cret-pass!' } });
    const forms = (await features()).forms;
    const reopened = await withUi(
      { 'form.closed.unsaved': 'reopen' },
      async (ui) => {
        panel.panel.dispose(); // the tab's ×
        return eventually(
          () => forms.panels().find((p) => p.key === panel.key && p !== panel),
          (p) => p !== undefined && ui.questions.includes('form.closed.unsaved'),
          'the form is open again',
        );
      },
      { allUsed: false },
    );
    assert.ok(reopened);
    assert.deepEqual(reopened.draft, { ...typed, password: '' }, 'the input as it was, the password left out');
    reopened.dispose();
  });

  it('closed after its Close discarded the input, or with nothing unsaved, no offer follows', async () => {
    const panel = await newMember();
    const state = await panel.whenLoaded();
    await panel.handleMessage({ type: 'dirty', dirty: true, values: { ...state.values, name: 'Gone' } });
    // The offer would be asked as the panel closes, within the same call; answered, it would be counted.
    await withUi(
      { 'form.close.unsaved': true, 'form.closed.unsaved': 'reopen' },
      async (ui) => {
        await panel.handleMessage({ type: 'close' });
        assert.deepEqual(ui.questions, ['form.close.unsaved'], 'asked once, by Close, and nothing after');
      },
      { allUsed: false },
    );
    const clean = await newMember();
    await clean.whenLoaded();
    await withUi(
      { 'form.closed.unsaved': 'reopen' },
      async (ui) => {
        clean.panel.dispose();
        assert.deepEqual(ui.questions, []);
      },
      { allUsed: false },
    );
  });
});
