// The action report as CSV (neutralised for spreadsheets) and Retry Failed: a plan of exactly the failed rows.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { applyPlan } from '../../../../../../src/engine/members/apply';
import { readJournal, retryPlanFromJournal } from '../../../../../../src/engine/members/index';
import { parseMembersFile } from '../../../../../../src/features/members/plan/core/file/membersFile';
import { allChanges } from '../../../../../../src/features/members/plan/core/model';
import { makePlan } from '../../../../../../src/features/members/plan/core/planner';
import { readPortalState } from '../../../../../../src/features/members/plan/core/portalState';
import { reportCounts, reportCsv, retryFailed } from '../../../../../../src/features/members/plan/core/report';
import { exportText, Table, withPortal } from './helpers';
import { tempDir } from '../../../../../support/tempDir';

void describe('action report', () => {
  void test('rows as CSV: header, neutralised formula cells, quoted commas', () => {
    const csv = reportCsv(
      [
        { row: 3, username: '=HYPERLINK("x")', action: 'update', result: 'failed', message: 'a, b', changeIds: [] },
        { row: undefined, username: 'bob', action: 'remove', result: 'done', message: '', changeIds: [] },
      ],
      { bom: false },
    );
    assert.equal(
      csv,
      'row,username,action,result,message\r\n3,"\'=HYPERLINK(""x"")",update,failed,"a, b"\r\n,bob,remove,done,\r\n',
    );
  });

  void test('Retry Failed plans the failed rows only, and applying it finishes the job', async () => {
    await withPortal(async (p) => {
      const storage = tempDir('portal-report-');
      try {
        const table = new Table(await exportText(p));
        table.set('alice.muller', 'Tags', 'x').set('bruno.dubois', 'Tags', 'y');
        const file = parseMembersFile(table.text());
        const plan = makePlan(file, await readPortalState(p.client, p.acme, file));
        p.emu.setFaults([
          {
            kind: 'error-body',
            status: 400,
            count: 1,
            method: 'PATCH',
            path: `/v3/accounts/${p.acme}/members/bruno.dubois`,
          },
        ]);
        const first = await applyPlan(p.client, plan, { journalFolder: storage, portalId: 'test' });
        assert.deepEqual(reportCounts(first.rows), { done: 1, failed: 1, skipped: 0, 'not-started': 0 });
        p.emu.clearFaults();
        const retry = retryFailed(plan, first.rows);
        assert.equal(retry.origin, 'retry');
        assert.deepEqual(
          allChanges(retry).map((c) => c.id),
          ['bruno.dubois#field:tags'],
        );
        // After a reload the plan is gone: the journal rebuilds the same retry.
        const fromJournal = retryPlanFromJournal(await readJournal(first.journalFile));
        assert.deepEqual(
          allChanges(fromJournal).map((c) => [c.id, c.kind === 'field' ? c.after : undefined]),
          [['bruno.dubois#field:tags', ['y']]],
        );
        const second = await applyPlan(p.client, retry, { journalFolder: storage, portalId: 'test' });
        assert.deepEqual(
          second.rows.map((r) => [r.username, r.result]),
          [['bruno.dubois', 'done']],
        );
        assert.deepEqual((await p.client.v3.members.get(p.acme, 'bruno.dubois')).tags, ['y']);
      } finally {
        await rm(storage, { recursive: true, force: true });
      }
    });
  });
});
