// The plan is the whole truth, through the real workbench: a file exported with group permissions gets a mailed-in
// Super-administrator starter, a row in error and one ordinary change, typed with the keyboard. Plan Changes…
// shows the row in error in a section of its own and the starter as an elevation; the file is edited, and Apply
// refuses the plan that is now out of date; a new plan is applied after a confirmation that names the elevation.
// Screenshot: plan-truth.png.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { usernameOf } from '../../src/features/members/plan/core/file/membersFile';
import { UI_TIMEOUT_MS, demoFlow } from './fixture';
import {
  exportWithGroups,
  membersFileSettings,
  planFromLens,
  planPane,
  quickOpen,
  readBack,
  save,
  typeOver,
} from './planUi';
import type { FlowContext } from './run';
import { check, dialogButton, notified, setPaneExpanded, signInToAcme, titleAction } from './ui';

const PORTAL_LABEL = 'Demo portal';
const STARTER = 'sam.starter';
const BROKEN = 'broken.row';

export async function run(ctx: FlowContext): Promise<void> {
  await demoFlow(
    ctx,
    'truth',
    { settings: (url) => membersFileSettings(url, PORTAL_LABEL) },
    async ({ wb, page, portal }) => {
      const permission = async (username: string): Promise<number | undefined> => {
        const res = await portal.get<{ permission: number }>(`/v3/accounts/1/members/${username}`);
        return res.status === 200 ? res.body.permission : undefined;
      };
      const workspace = path.join(wb.dirs.root, 'workspace');
      fs.mkdirSync(workspace, { recursive: true });
      const csv = path.join(workspace, 'acme-truth.csv');
      await signInToAcme(page, PORTAL_LABEL, { width: 560, height: 1000, keep: ['Members'] });

      // 1. Export with group permissions, and open the file.
      await exportWithGroups(page, csv, 'Acme Corporation');
      await setPaneExpanded(page, 'Members', false);
      const exported = readBack(csv);
      const changed = exported.rows
        .map((r) => usernameOf(exported, r))
        .find((u) => /^[a-z]+\.[a-z]+$/.test(u) && u !== 'yara.haddad');
      check(changed, 'a generated member');
      await quickOpen(page, csv);

      // 2. One ordinary change, a mailed-in Super administrator, a row in error: typed, then saved.
      await page.locator('.monaco-editor .view-lines').first().click();
      await typeOver(page, exported, changed, 'tags', 'truth-e2e');
      const header = exported.header.map((h) => h.key);
      const line = (cells: Partial<Record<string, string>>) => header.map((k) => (k ? (cells[k] ?? '') : '')).join(',');
      await page.keyboard.press('Control+End');
      await page.keyboard.type(
        line({
          username: STARTER,
          name: 'Sam',
          email: 'sam@attacker.example',
          accountPermission: 'Super administrator',
        }),
        { delay: 5 },
      );
      await page.keyboard.press('Enter');
      await page.keyboard.type(line({ username: BROKEN, name: 'Broken Row', email: 'not-an-address' }), { delay: 5 });
      await page.keyboard.press('Escape');
      await save(page);

      // 3. Plan Changes…: the row in error has a section of its own; the starter is marked as an elevation.
      await planFromLens(page);
      const pane = planPane(page);
      await pane.getByText('Rows not planned').waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
      await pane.getByText('NOT PLANNED: 1').waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
      await pane
        .locator('.monaco-list-row', { hasText: BROKEN })
        .getByText('is not an e-mail address')
        .waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
      await pane
        .locator('.monaco-list-row', { hasText: STARTER })
        .getByText('ELEVATION, grants Super administrator')
        .waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
      const image = path.join(ctx.imagesDir, 'plan-truth.png');
      await wb.screenshot(image);
      ctx.log(`the plan shows the row in error and the elevation; screenshot ${path.relative(process.cwd(), image)}`);

      // 4. The file is edited (the broken row fixed): the plan is out of date, and Apply refuses it.
      const typed = readBack(csv);
      await page.locator('.monaco-editor .view-lines').first().click();
      await typeOver(page, typed, BROKEN, 'email', 'broken.row@acme.example');
      await save(page);
      await pane.getByText('OUT OF DATE').waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
      await titleAction(page, /^Plan/, 'Apply Plan…');
      await notified(page, 'The file changed after this plan was made');
      check((await permission(STARTER)) === undefined, `${STARTER} was sent by a refused apply`);
      ctx.log('the edit made the plan out of date; Apply refused it and sent nothing');

      // 5. Plan again and apply: the confirmation names the elevation; the portal has the three changes.
      await planFromLens(page);
      await pane.getByText('3 of 3 changes chosen').waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
      await titleAction(page, /^Plan/, 'Apply Plan…');
      const box = page.locator('.monaco-dialog-box', { hasText: 'Changes that grant more power: 1' });
      await box.getByText(`${STARTER}: Super administrator`).waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
      await (await dialogButton(page, 'Apply changes to 3 members of Acme Corporation?', 'Apply to 3 Members')).click();
      await notified(page, /Applied to Acme Corporation\. Done: 3\./);
      check((await permission(STARTER)) === 16, `${STARTER} is not a Super administrator`);
      check((await permission(BROKEN)) === 1, `${BROKEN} is not a member`);
      const tags = await portal.get<{ tags: string[] }>(`/v3/accounts/1/members/${changed}`);
      check(JSON.stringify(tags.body.tags) === '["truth-e2e"]', `${changed}: ${JSON.stringify(tags.body.tags)}`);
      ctx.log('the new plan was applied: the portal has the three changes');
    },
  );
}
