// HR's spreadsheet into the portal through the real workbench: HR's `.xlsx` (first, last, e-mail, department, start
// date as dd/mm/yyyy) → Import Members from a Spreadsheet… → the mapping (columns accepted as proposed, the date
// format asked, departments to groups by name, first.last usernames) → a members file with no problem → Plan
// Changes… shows six new members → Apply; the portal has them in their groups. Then next quarter's sheet, imported
// with the saved mapping: no question but which sheet. Screenshots: import-mapping-light.png, import-mapping-dark.png.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { parseMembersFile, valueOf } from '../../src/features/members/plan/core/file/membersFile';
import { SIX_STARTERS, writeHrSheet, type HrRow } from '../unit/features/members/import/hrSheet';
import { createDirs, quickInput, UI_TIMEOUT_MS, demoFlow } from './fixture';
import { planImport } from './planUi';
import type { FlowContext } from './run';
import {
  activeTab,
  check,
  colorTheme,
  dialogButton,
  pick,
  signInToAcme,
  notified,
  startImport,
  THEMES,
  titleAction,
} from './ui';

const PORTAL_LABEL = 'Demo portal';
const ACME = 1;
const SIX = ['ana.lopez', 'ben.okafor', 'chloe.martin', 'dev.patel', 'eva.novak', 'finn.obrien'];
const NEXT_QUARTER: readonly HrRow[] = [
  ['Gus', 'Lee', 'gus.lee@acme.example', 'Engineering', '05/04/2099'],
  ['Hana', 'Sato', 'hana.sato@acme.example', 'Marketing', '06/04/2099'],
];

/** The mapping's first step, the columns with their proposed meanings, on screen. */
async function columnsStep(page: Page): Promise<void> {
  const q = await quickInput(page);
  await q.widget
    .locator('.quick-input-title', { hasText: 'what each column holds' })
    .waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  await q.rows
    .filter({ hasText: 'Start date (activation e-mail)' })
    .first()
    .waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
}

export async function run(ctx: FlowContext): Promise<void> {
  const dirs = createDirs('import');
  const workspace = path.join(dirs.root, 'workspace');
  fs.mkdirSync(workspace, { recursive: true });
  await writeHrSheet(path.join(workspace, 'hr-2099-q1.xlsx'), SIX_STARTERS);
  try {
    const settings = () => ({ 'workbench.colorTheme': THEMES.light });
    await demoFlow(ctx, 'import', { dirs, settings }, async ({ wb, page, portal }) => {
      /** A member's groups on the portal, read as the demo user (not through the extension). */
      const groupsOf = (username: string) => portal.groups(ACME, username);
      for (const u of SIX) check((await groupsOf(u)) === undefined, `${u} is already a member`);
      await signInToAcme(page, PORTAL_LABEL, { width: 520, height: 1000 });
      ctx.log('signed in');

      // 1. The mapping's columns, proposed from HR's headers and values: a screenshot in each theme. Escape leaves
      // nothing behind (the mapping is saved only once complete), so the import starts again in the other theme.
      for (const name of ['light', 'dark'] as const) {
        await colorTheme(page, name);
        await startImport(page, 'hr-2099-q1.xlsx');
        await pick(page, 'Acme Corporation');
        await columnsStep(page);
        // The portal's read is done once the step shows; its notification is let go before the picture.
        await page
          .locator('.notification-toast', { hasText: 'Reading the members and groups' })
          .waitFor({ state: 'detached', timeout: UI_TIMEOUT_MS });
        const image = path.join(ctx.imagesDir, `import-mapping-${name}.png`);
        await wb.screenshot(image);
        ctx.log(`the columns' meanings proposed; screenshot ${path.relative(process.cwd(), image)}`);
        if (name === 'light') await page.keyboard.press('Escape');
      }
      check(!fs.existsSync(path.join(workspace, 'hr-2099-q1.portal-mapping.json')), 'a cancelled mapping was saved');

      // 2. Accept the columns; 05/01/2099 reads two ways, so the format is asked; the proposed table; first.last.
      await pick(page, 'Use These Columns');
      await pick(page, 'dd/mm/yyyy');
      const table = await quickInput(page);
      await table.rows
        .filter({ hasText: 'Employee Handbook · Standard' })
        .first()
        .waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
      await pick(page, 'Use This Table');
      await pick(page, 'first.last');
      await activeTab(page, 'hr-2099-q1.members.csv');
      await notified(page, /6 people from hr-2099-q1\.xlsx/);
      const membersFile = path.join(workspace, 'hr-2099-q1.members.csv');
      check((fs.statSync(membersFile).mode & 0o777) === 0o600, 'the members file is not 0600');
      const written = parseMembersFile(fs.readFileSync(membersFile, 'utf8'));
      const usernames = written.rows.map((r) => valueOf(written, r, 'username'));
      check(JSON.stringify(usernames) === JSON.stringify(SIX), `usernames: ${usernames.join(', ')}`);
      check(valueOf(written, written.rows[0]!, 'activationDate') === '2099-01-05', 'Ana starts on 5 January 2099');
      ctx.log('the members file is written and open');

      // 3. No problem in the file; Plan Changes… from its CodeLens: six new members.
      const labels = await planImport(page, '6 of 6', SIX[SIX.length - 1]!);
      check(
        SIX.every((u) => labels.includes(u)),
        `the plan shows: ${labels.join(' | ')}`,
      );
      const problems = await page.locator('.statusbar-item[id="status.problems"]').first().getAttribute('aria-label');
      check(problems === null || !/[1-9]\d* (errors?|warnings?)/i.test(problems), `problems: ${problems}`);
      ctx.log('the plan shows six new members; the file has no problem');

      // 4. Apply: the six are members, in their department's group at Standard.
      await titleAction(page, /^Plan/, 'Apply Plan…');
      await (await dialogButton(page, /Apply changes to 6 members of Acme Corporation\?/, /^Apply/)).click();
      await notified(page, /Applied to Acme Corporation\. Done: 6\./);
      const expected: Record<string, string> = {
        'ana.lopez': 'engineering',
        'ben.okafor': 'engineering',
        'chloe.martin': 'marketing',
        'dev.patel': 'handbook',
        'eva.novak': 'engineering',
        'finn.obrien': 'marketing',
      };
      for (const [u, group] of Object.entries(expected)) {
        const groups = await groupsOf(u);
        check(groups?.[group] === 4, `${u}'s groups: ${JSON.stringify(groups)}`);
      }
      ctx.log('applied: the six are members of their groups');

      // 5. Next quarter's sheet beside the first: the saved mapping answers everything; no question but the sheet.
      await writeHrSheet(path.join(workspace, 'hr-2099-q2.xlsx'), NEXT_QUARTER);
      await startImport(page, 'hr-2099-q2.xlsx');
      await activeTab(page, 'hr-2099-q2.members.csv');
      await notified(page, /2 people from hr-2099-q2\.xlsx/);
      const next = parseMembersFile(fs.readFileSync(path.join(workspace, 'hr-2099-q2.members.csv'), 'utf8'));
      check(
        JSON.stringify(next.rows.map((r) => [valueOf(next, r, 'username'), valueOf(next, r, 'activationDate')])) ===
          JSON.stringify([
            ['gus.lee', '2099-04-05'],
            ['hana.sato', '2099-04-06'],
          ]),
        `next quarter's file: ${fs.readFileSync(path.join(workspace, 'hr-2099-q2.members.csv'), 'utf8')}`,
      );
      ctx.log("next quarter's sheet imported with the saved mapping, no question asked");
    });
  } finally {
    fs.rmSync(dirs.root, { recursive: true, force: true });
  }
}
