// Member edits that are not a plan (a form's save, a single command) run through the engine like a plan's apply:
// journaled with the values before, undone by the undo plan of their journal; a password is sent, never journaled.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { applyPlan } from '../../../../src/engine/members/apply';
import { runEdit } from '../../../../src/engine/members/edits';
import { changeHistory, undoPlan } from '../../../../src/engine/members/index';
import { withPortal, withStorage } from '../../features/members/plan/core/helpers';

void describe('member edits through the engine', () => {
  void test('a create with a password: the member is created, the password never reaches the journal, and Undo removes them', async () => {
    await withPortal(async (p) =>
      withStorage(async (storage) => {
        const password = 'S3cret-never-journaled!';
        const head = { accountId: p.acme, portalId: 'test', origin: 'form' as const, title: 'Add edit.new' };
        const body = { username: 'edit.new', name: 'Edit New', email: 'edit.new@acme.example', enabled: true };
        const fields = { name: body.name, email: body.email, enabled: true };
        const done = await runEdit(
          p.client,
          head,
          {
            username: body.username,
            action: 'create',
            before: null,
            after: { fields, groups: {} },
            requests: [{ method: 'v3.create', body }],
            password,
          },
          { journalFolder: storage },
        );
        assert.equal(done.row.result, 'done');
        assert.equal(done.answer?.user.username, 'edit.new');
        const [past] = await changeHistory(storage);
        assert.ok(past?.undoable);
        assert.equal(past.record.begin.title, 'Add edit.new');
        assert.ok(!(await readFile(past.record.file, 'utf8')).includes(password), 'no password in the journal');
        const undo = undoPlan(past.record);
        assert.equal(undo.permanentDeletions.length, 1, 'removing a member just created deletes them for good');
        const undone = await applyPlan(p.client, undo, { journalFolder: storage, portalId: 'test' });
        assert.deepEqual(
          undone.rows.map((r) => r.result),
          ['done'],
        );
        await assert.rejects(p.client.v3.members.get(p.acme, 'edit.new'), { kind: 'not-found' });
        const history = await changeHistory(storage);
        assert.equal(history.find((c) => c.record.applyId === past.record.applyId)?.undone, true);
        assert.ok(
          history.every((c) => !c.undoable),
          'neither the change undone nor the undo is offered again',
        );
      }),
    );
  });
});
