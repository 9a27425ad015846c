// A large members file is read, hashed and checked in slices (the live checks), with a pause between them: the same
// file, digest and problems as the readers that take it whole, and the pauses come at least once per slice of the
// file. Plan Changes… reads and plans it in a worker: the same file and plan as this thread would make.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { csvLine, UTF8_BOM } from '../../../../../../src/features/members/csv/csv';
import {
  parseMembersFile,
  parseMembersFileInSlices,
  rereadRows,
  streamMembersFile,
  usernameOf,
} from '../../../../../../src/features/members/plan/core/file/membersFile';
import type { MembersFileRow } from '../../../../../../src/features/members/plan/core/model';
import { fileDigest, fileDigestInSlices, makePlan } from '../../../../../../src/features/members/plan/core/planner';
import { checkFile, checkFileInSlices } from '../../../../../../src/features/members/plan/core/file/diagnose';
import { readPortalState } from '../../../../../../src/features/members/plan/core/portalState';
import { readInWorker } from '../../../../../../src/features/members/plan/core/worker/planInWorker';
import { exportText, withPortal } from './helpers';

/** The export, then 8,000 rows of new members with text that is not one byte a character, one with a line break. */
function largeText(exported: string, columns: number): string {
  let text = exported;
  for (let i = 0; i < 8000; i++) {
    const note = i === 1234 ? 'two\nlines' : `Zoë 名 ${'x'.repeat(i % 50)} 😀`;
    text += csvLine([`new.${i}`, note, `new.${i}@acme.example`, ...new Array<string>(columns - 3).fill('')]);
  }
  return text;
}

void describe('members file in slices', () => {
  void test('the same file, digest and problems as read whole, with pauses all along', async () => {
    await withPortal(async (p) => {
      const exported = await exportText(p, false);
      const header = exported.replace(UTF8_BOM, '').split('\r\n', 1)[0] ?? '';
      const text = largeText(exported, header.split(',').length);
      assert.ok(text.length > 600_000, `${text.length} characters`);
      let pauses = 0;
      const pause = () => {
        pauses++;
        return new Promise<void>((resolve) => setImmediate(resolve));
      };
      const whole = parseMembersFile(text);
      const sliced = await parseMembersFileInSlices(text, {}, pause);
      assert.deepEqual(sliced, whole);
      assert.ok(pauses >= 3, `${pauses} pauses while parsing`);
      // Read without keeping the rows, then read again: the same rows each time, each with its username.
      const streamed: MembersFileRow[] = [];
      const head = await streamMembersFile(text, {}, pause, (row, username) => {
        assert.equal(username, usernameOf(whole, row));
        streamed.push(row);
      });
      assert.deepEqual({ ...head, rows: streamed }, whole);
      const again: MembersFileRow[] = [];
      await rereadRows(head, pause, (row) => again.push(row));
      assert.deepEqual(again, whole.rows);
      assert.equal(await fileDigestInSlices(text, pause), fileDigest(text));
      const state = await readPortalState(p.client, p.acme, whole);
      const now = Date.now();
      const before = pauses;
      const context = { groups: state.groups, members: state.members, now, readAt: state.readAt };
      const checked = await checkFileInSlices(sliced, context, pause);
      assert.deepEqual(checked.problems, checkFile(whole, context).problems);
      assert.ok(pauses - before >= 2, `${pauses - before} pauses while checking`);
      assert.equal(checked.rows.length, whole.rows.length);
    });
  });

  void test('the planning worker reads the file and plans it as this thread does, group reads and parts included', async () => {
    await withPortal(async (p) => {
      const exported = await exportText(p, true);
      const header = exported.replace(UTF8_BOM, '').split('\r\n', 1)[0] ?? '';
      // A group changed for two members (their digest no longer matches, so their groups are read), and enough new
      // members that the plan comes back in several parts.
      const lines = exported.split('\r\n');
      const changed = lines.map((l, i) =>
        i === 1 || i === 2 ? l.replace(/,Basic,|,Standard,|,,/, ',Administrator,') : l,
      );
      const text = largeText(changed.join('\r\n'), header.split(',').length);
      const whole = parseMembersFile(text);
      const file = await readInWorker(text, {});
      try {
        assert.deepEqual(file.read, {
          rows: whole.rows.length,
          digest: fileDigest(text),
          hasGroupColumns: true,
          readsGroups: true,
        });
        const state = await readPortalState(p.client, p.acme, file.needs);
        const here = await readPortalState(p.client, p.acme, whole);
        assert.equal(state.requests, here.requests, 'the same portal reads, group reads included');
        const now = Date.now();
        const { plan: planned } = await file.plan(state, { now });
        assert.deepEqual(planned, makePlan(whole, state, { now }));
        assert.equal(planned.newMembers.length, 8000);
        assert.ok(planned.groupChanges.length > 0, 'the changed group cells are planned');
      } finally {
        await file.close();
      }
    });
  });
});
