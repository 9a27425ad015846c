// HR's sheet names someone who is a member already, through the real workbench: Mia (member) is in Engineering,
// Marketing and the Social Club (administrator there); the sheet puts her in the Social Club beside a starter in
// Marketing. Import Members from a Spreadsheet… says she is a member already and that the file keeps her groups; Plan
// Changes… plans the starter alone, nothing of Mia's; applied, the portal has the starter and Mia's groups as they
// were. The next sheet in the folder is imported with the saved mapping, and the import says so.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { writeHrSheet, type HrRow } from '../unit/features/members/import/hrSheet';
import { createDirs, quickInput, demoFlow, UI_TIMEOUT_MS } from './fixture';
import { planImport } from './planUi';
import type { FlowContext } from './run';
import { activeTab, check, dialogButton, pick, signInToAcme, notified, startImport, titleAction } from './ui';

const PORTAL_LABEL = 'Demo portal';
const ACME = 1;
const MIA = 'member';
const STARTER = 'zoe.starter';
const Q3: readonly HrRow[] = [
  ['Mia', 'Member', 'member@acme.example', 'Social Club', ''],
  ['Zoe', 'Starter', 'zoe.starter@acme.example', 'Marketing', '05/01/2099'],
];
// The departments the first sheet mapped, so the saved mapping answers every question.
const Q4: readonly HrRow[] = [['Yuki', 'Tanaka', 'yuki.tanaka@acme.example', 'Marketing', '06/04/2099']];

const sorted = (g: Record<string, number> | undefined): string => JSON.stringify(Object.entries(g ?? {}).sort());

/** The mapping, as proposed, but for usernames: the e-mail's local part, which is Mia's username on the portal. */
async function firstMapping(page: Page): Promise<void> {
  const q = await quickInput(page);
  await q.widget
    .locator('.quick-input-title', { hasText: 'what each column holds' })
    .waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  await pick(page, 'Use These Columns');
  await pick(page, 'dd/mm/yyyy');
  await pick(page, 'Use This Table');
  await pick(page, "The e-mail's local part");
}

export async function run(ctx: FlowContext): Promise<void> {
  const dirs = createDirs('import-existing');
  const workspace = path.join(dirs.root, 'workspace');
  fs.mkdirSync(workspace, { recursive: true });
  await writeHrSheet(path.join(workspace, 'starters-2099-q3.xlsx'), Q3);
  try {
    await demoFlow(ctx, 'importExisting', { dirs }, async ({ page, portal }) => {
      /** A member's groups on the portal, read as the demo user (not through the extension). */
      const groupsOf = (username: string) => portal.groups(ACME, username);
      const miaBefore = await groupsOf(MIA);
      check(
        miaBefore?.engineering && miaBefore.marketing && miaBefore.social === 16,
        `Mia's groups: ${sorted(miaBefore)}`,
      );
      check((await groupsOf(STARTER)) === undefined, `${STARTER} is a member already`);
      await signInToAcme(page, PORTAL_LABEL, { width: 520, height: 1000 });
      ctx.log('signed in');

      // 1. The import: Mia is found a member already, and the file keeps every group she is in.
      await startImport(page, 'starters-2099-q3.xlsx');
      await pick(page, 'Acme Corporation');
      await firstMapping(page);
      await activeTab(page, 'starters-2099-q3.members.csv');
      await notified(page, /Members already: 1; the file changes none of them, and keeps every group they are in\./);
      ctx.log('imported: Mia is a member already, and the file keeps her groups');

      // 2. Plan Changes…: the starter alone; no change of Mia's.
      const labels = await planImport(page, '1 of 1', STARTER);
      check(!labels.includes(MIA), `the plan touches Mia: ${labels.join(' | ')}`);
      ctx.log(`the plan: ${STARTER} alone, nothing of Mia's`);

      // 3. Applied: the starter joins Marketing; Mia's groups are as they were.
      await titleAction(page, /^Plan/, 'Apply Plan…');
      await (await dialogButton(page, 'Apply changes to 1 member of Acme Corporation?', 'Apply to 1 Member')).click();
      await notified(page, /Applied to Acme Corporation\. Done: 1\./);
      const starter = await groupsOf(STARTER);
      check(starter?.marketing === 4, `${STARTER}'s groups: ${sorted(starter)}`);
      const miaAfter = await groupsOf(MIA);
      check(sorted(miaAfter) === sorted(miaBefore), `Mia's groups were ${sorted(miaBefore)}, now ${sorted(miaAfter)}`);
      ctx.log(`applied: ${STARTER} is in Marketing; Mia's groups are untouched`);

      // 4. The next sheet beside it: the saved mapping answers every question, and the import says which it used.
      await writeHrSheet(path.join(workspace, 'starters-2099-q4.xlsx'), Q4);
      await startImport(page, 'starters-2099-q4.xlsx');
      await activeTab(page, 'starters-2099-q4.members.csv');
      const done = page.locator('.notification-toast', { hasText: /1 person from starters-2099-q4\.xlsx/ }).first();
      await done.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
      ctx.log('the next sheet: imported with the saved mapping, no question but which sheet');
      const told = (await done.innerText()).replace(/\s+/g, ' ');
      check(
        /saved mapping/i.test(told) && /starters-2099-q3/.test(told) && /Forget Saved Mapping/.test(told),
        `the import does not name the saved mapping it used, nor how to change it: "${told}"`,
      );
      ctx.log(`the import names the saved mapping: "${told}"`);
    });
  } finally {
    fs.rmSync(dirs.root, { recursive: true, force: true });
  }
}
