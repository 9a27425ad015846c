// Settings changes (a group, the organisation, an application) as the engine's third kind, against the emulator:
// journaled with the values they replace, listed in the history, undone from those values; what the API cannot take
// back says so; a new application's secret is returned to the caller and never journaled.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  noUndoReason,
  resumeSettings,
  runSettings,
  settingsHistory,
  settingsUndo,
  unfinishedSettings,
  type SettingsUnit,
} from '../../../../src/engine/settings/index';
import { Journal } from '../../../../src/engine/journalFile';
import { settingsJournal } from '../../../../src/engine/settings/journalSchema';
import { settingsFolderOf } from '../../../../src/engine/settings/run';
import { groupId, signedInSuite } from '../../api/helpers';
import { tempDir } from '../../../support/tempDir';

void describe('settings changes through the engine', () => {
  const s = signedInSuite(() => ({ storage: tempDir('settings-engine-') }));
  after(() => fs.rmSync(s.storage, { recursive: true, force: true }));

  const run = (units: SettingsUnit[], title: string, extra: { origin?: 'undo'; undoOf?: string } = {}) =>
    runSettings(s.t.client, units, {
      storageFolder: s.storage,
      portalId: 'p',
      accountId: s.acme,
      origin: extra.origin ?? 'form',
      title,
      ...(extra.undoOf ? { undoOf: extra.undoOf } : {}),
    });

  const undoOf = async (applyId: string) => {
    const past = (await settingsHistory(s.storage)).find((c) => c.record.applyId === applyId);
    assert.ok(past?.undoable, 'the change is offered for undo');
    const offer = settingsUndo(past.record);
    assert.ok('plan' in offer);
    return run(offer.plan, `Undo ${past.record.begin.title ?? ''}`, { origin: 'undo', undoOf: applyId });
  };

  void test('a group rename is journaled with the old name and undone from it; then it is not offered again', async () => {
    const social = await groupId(s.t.client, s.acme, 'social');
    const was = await s.t.client.v2.groups.get(s.acme, social);
    const done = await run(
      [
        {
          seq: 0,
          label: 'the group Social',
          change: { resource: 'group', action: 'update', groupId: social, body: { friendlyName: 'Social Club' } },
        },
      ],
      'Rename the group Social',
    );
    assert.equal(done.outcomes.get(0)?.result, 'done');
    assert.equal((await s.t.client.v2.groups.get(s.acme, social)).friendlyName, 'Social Club');
    const journal = fs.readFileSync(path.join(settingsFolderOf(s.storage), 'journal', `${done.applyId}.jsonl`), 'utf8');
    assert.match(journal, new RegExp(`"before":\\{"friendlyName":"${was.friendlyName}"\\}`));

    const undone = await undoOf(done.applyId);
    assert.equal(undone.outcomes.get(0)?.result, 'done');
    assert.equal((await s.t.client.v2.groups.get(s.acme, social)).friendlyName, was.friendlyName);
    const history = await settingsHistory(s.storage);
    assert.equal(history.find((c) => c.record.applyId === done.applyId)?.undoable, false, 'undone once');
    assert.equal(history.find((c) => c.record.applyId === undone.applyId)?.undoable, false, 'an undo is no change');
  });

  void test("the organisation's friendly name and an application's name are undone the same way", async () => {
    const account = await s.t.client.v3.accounts.get(s.acme);
    const org = await run(
      [
        {
          seq: 0,
          label: 'Acme',
          change: { resource: 'organisation', action: 'update', update: { friendlyName: 'Acme Ltd' } },
        },
      ],
      'Rename the organisation',
    );
    assert.equal((await s.t.client.v3.accounts.get(s.acme)).friendlyName, 'Acme Ltd');
    await undoOf(org.applyId);
    assert.equal((await s.t.client.v3.accounts.get(s.acme)).friendlyName, account.friendlyName);

    const app = (await s.t.client.v3.applications.list())[0];
    assert.ok(app, 'the seed has an application');
    const renamed = await run(
      [
        {
          seq: 0,
          label: app.name,
          change: {
            resource: 'application',
            action: 'update',
            clientId: app.clientId,
            update: { name: 'Renamed app' },
          },
        },
      ],
      'Rename the application',
    );
    assert.equal((await s.t.client.v3.applications.get(app.clientId)).name, 'Renamed app');
    await undoOf(renamed.applyId);
    assert.equal((await s.t.client.v3.applications.get(app.clientId)).name, app.name);
  });

  void test('a secret rotation and a new application say they cannot be undone; the new secret is never journaled', async () => {
    const created = await run(
      [
        {
          seq: 0,
          label: 'Build bot',
          change: { resource: 'application', action: 'create', draft: { name: 'Build bot' } },
        },
      ],
      'Create the application Build bot',
    );
    const answer = created.answers.get(0) as { clientId: string; clientSecret?: string };
    assert.ok(answer.clientSecret, 'the caller gets the secret');
    const rotate: SettingsUnit = {
      seq: 0,
      label: 'Build bot',
      change: { resource: 'application', action: 'rotate-secret', clientId: answer.clientId },
    };
    assert.equal(noUndoReason(rotate.change), 'secret-rotated');
    const rotated = await run([rotate], 'Rotate the secret of Build bot');
    const secret = (rotated.answers.get(0) as { clientSecret?: string }).clientSecret;
    assert.ok(secret && secret !== answer.clientSecret);
    for (const id of [created.applyId, rotated.applyId]) {
      const text = fs.readFileSync(path.join(settingsFolderOf(s.storage), 'journal', `${id}.jsonl`), 'utf8');
      assert.ok(!text.includes(answer.clientSecret) && !text.includes(secret), 'no secret in the journal');
      const past = (await settingsHistory(s.storage)).find((c) => c.record.applyId === id);
      assert.equal(past?.undoable, false);
      const offer = settingsUndo(past.record);
      assert.ok('notOffered' in offer && offer.notOffered.length > 0);
    }
  });

  void test('a change interrupted after its intent is resumed: an update that landed is not sent again', async () => {
    const social = await groupId(s.t.client, s.acme, 'social');
    const unit: SettingsUnit = {
      seq: 0,
      label: 'the group Social',
      change: { resource: 'group', action: 'update', groupId: social, body: { friendlyName: 'Socials' } },
    };
    // A run that journaled its intent and sent its request, then stopped before its outcome (a reload).
    const journal = await Journal.create(settingsJournal, settingsFolderOf(s.storage), {
      accountId: s.acme,
      portalId: 'p',
      origin: 'form',
      startedAt: Date.now(),
      title: 'Rename the group Social',
      work: [unit],
    });
    await journal.append({
      type: 'intent',
      seq: 0,
      before: { friendlyName: 'Social' },
      requests: [{ sent: unit.change }],
    });
    await s.t.client.v2.groups.update(s.acme, social, { friendlyName: 'Socials' });
    await journal.close();
    const stale = (await unfinishedSettings(s.storage)).find((r) => r.applyId === journal.applyId);
    assert.ok(stale, 'offered as interrupted');
    const writesBefore = s.emu.stats().requests;
    const resumed = await resumeSettings(s.t.client, stale);
    assert.equal(resumed.outcomes.get(0)?.result, 'done');
    assert.equal(s.emu.stats().requests - writesBefore, 1, 'one read, no second update');
    assert.equal((await unfinishedSettings(s.storage)).length, 0);
  });
});
