// Membership as code through the real workbench, in one launch: Export Members to CSV with group permissions;
// three rows edited in the editor with the keyboard (a new member, a tag, a group permission) and one bad
// permission word typed, seen in the Problems panel and fixed; Plan Changes… from the header's CodeLens shows
// exactly three changes; Apply after one confirmation; the action report opens; the portal has the changes; Undo
// Last Apply puts the portal back where it started. Every change is checked on the emulator over HTTP.
// Screenshot: plan-changes.png.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { usernameOf, cellOf } from '../../src/features/members/plan/core/file/membersFile';
import type { ColumnKey } from '../../src/features/members/plan/core/model';
import { UI_TIMEOUT_MS, demoFlow, DemoReader } from './fixture';
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
import {
  activeTab,
  check,
  chooseFolder,
  dialogButton,
  notified,
  palette,
  setPaneExpanded,
  signInToAcme,
  titleAction,
  typeToConfirm,
} from './ui';

const PORTAL_LABEL = 'Demo portal';
const ACME = 1;
const ENGINEERING: ColumnKey = 'group:engineering';
const NEW_MEMBER = 'nora.new';

interface MemberJson {
  tags: string[];
}

/** Reads the portal as the demo user, not through the extension. */
class Portal extends DemoReader {
  /** What the flow changes of a member: tags and engineering level, or undefined when not a member. */
  async state(username: string): Promise<string | undefined> {
    const v3 = await this.get<MemberJson>(`/v3/accounts/${ACME}/members/${username}`);
    if (v3.status === 404) return undefined;
    check(v3.status === 200, `GET ${username}: ${v3.status}`);
    return JSON.stringify({ tags: v3.body.tags, engineering: (await this.groups(ACME, username))?.engineering ?? 0 });
  }
}

export async function run(ctx: FlowContext): Promise<void> {
  await demoFlow(
    ctx,
    'plan',
    { settings: (url) => membersFileSettings(url, PORTAL_LABEL) },
    async ({ wb, page, emu }) => {
      const portal = new Portal(emu.url);
      const workspace = path.join(wb.dirs.root, 'workspace');
      fs.mkdirSync(workspace, { recursive: true });
      const csv = path.join(workspace, 'acme-members.csv');
      await signInToAcme(page, PORTAL_LABEL, { width: 520, height: 1000, keep: ['Members'] });
      ctx.log('signed in; the Members view shows Acme Corporation');

      // 1. Export with group permissions: the pick says what they cost.
      await exportWithGroups(page, csv, 'Acme Corporation');
      const exported = readBack(csv);
      check(exported.groupColumns.includes('engineering'), `group columns: ${exported.groupColumns.join(', ')}`);
      ctx.log(`exported ${exported.rows.length} members with ${exported.groupColumns.length} group columns`);

      // The three members the flow changes, as the portal holds them before.
      const names = exported.rows
        .map((r) => usernameOf(exported, r))
        .filter((u) => /^[a-z]+\.[a-z]+$/.test(u) && u !== 'yara.haddad');
      const tagged = names.find(
        (u) =>
          !/[",]/.test(
            cellOf(
              exported,
              exported.rows.find((r) => usernameOf(exported, r) === u)!,
              'tags',
            )?.value ?? ',',
          ),
      );
      const grouped = names.find((u) => u !== tagged);
      check(tagged && grouped, 'two generated members');
      /** The three members the flow changes, as the portal holds them now. */
      const states = async (): Promise<Record<'tagged' | 'grouped' | 'added', string | undefined>> => ({
        tagged: await portal.state(tagged),
        grouped: await portal.state(grouped),
        added: await portal.state(NEW_MEMBER),
      });
      const before = await states();
      check(before.added === undefined, `${NEW_MEMBER} is already a member`);
      const groupedRow = exported.rows.find((r) => usernameOf(exported, r) === grouped)!;
      const groupedWord = cellOf(exported, groupedRow, ENGINEERING)?.value === 'Standard' ? 'Basic' : 'Standard';

      await setPaneExpanded(page, 'Members', false);

      // 2. Edit three rows with the keyboard, one bad permission word among them.
      await quickOpen(page, csv);
      await page.locator('.monaco-editor .view-lines').first().click();
      await typeOver(page, exported, tagged, 'tags', 'plan-e2e');
      await typeOver(page, exported, grouped, ENGINEERING, groupedWord);
      const header = exported.header.map((h) => h.key);
      const cells: Partial<Record<string, string>> = {
        username: NEW_MEMBER,
        name: 'Nora New',
        email: 'nora.new@acme.example',
        enabled: 'true',
        locked: 'false',
        accountPermission: 'Member',
        twoFactor: 'false',
        [ENGINEERING]: 'Admin',
      };
      await page.keyboard.press('Control+End');
      await page.keyboard.type(header.map((k) => (k ? (cells[k] ?? '') : '')).join(','), { delay: 5 });
      await page.keyboard.press('Escape');
      await save(page);

      await page.keyboard.press('Control+Shift+m');
      const problem = page.locator('.markers-panel .monaco-list-row', { hasText: '"Admin" is not a group permission' });
      await problem.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
      ctx.log('the Problems panel shows the bad permission word');
      const typed = readBack(csv);
      await page.locator('.monaco-editor .view-lines').first().click();
      await typeOver(page, typed, NEW_MEMBER, ENGINEERING, 'Basic');
      await save(page);
      await problem.waitFor({ state: 'detached', timeout: UI_TIMEOUT_MS });
      ctx.log('fixed: the problem is gone');

      // 3. Plan Changes… from the CodeLens on the header line: exactly three changes.
      // Nobody on the portal is missing from the export: no question about absent members.
      await planFromLens(page);
      await planPane(page).locator('.monaco-list-row').first().waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
      await planPane(page).getByText('3 of 3 changes chosen').waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
      const rows = planPane(page).locator('.monaco-list-row');
      const labels = await rows.locator('.label-name').allInnerTexts();
      const changeRows = labels.filter((l) => [tagged, grouped, NEW_MEMBER].includes(l));
      check(labels.length === 6 && changeRows.length === 3, `the plan shows: ${labels.join(' | ')}`);
      const image = path.join(ctx.imagesDir, 'plan-changes.png');
      await wb.screenshot(image);
      ctx.log(`the plan shows exactly three changes; screenshot ${path.relative(process.cwd(), image)}`);

      // 4. Apply: one confirmation naming the counts; the report opens; the portal has the changes.
      await titleAction(page, /^Plan/, 'Apply Plan…');
      await (await dialogButton(page, 'Apply changes to 3 members of Acme Corporation?', 'Apply to 3 Members')).click();
      await activeTab(page, /^apply-[-0-9a-f]+\.csv/);
      await page
        .locator('.monaco-editor .view-lines', { hasText: 'row,username,action,result,message' })
        .first()
        .waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
      await notified(page, /Applied to Acme Corporation\. Done: 3\./);
      const after = await states();
      check(
        after.tagged ===
          JSON.stringify({ tags: ['plan-e2e'], engineering: JSON.parse(before.tagged ?? '{}').engineering }),
        `${tagged}: ${after.tagged}`,
      );
      check(
        after.grouped !== before.grouped && after.grouped?.includes(`"engineering":${groupedWord === 'Basic' ? 1 : 4}`),
        `${grouped}: ${after.grouped}`,
      );
      check(after.added === JSON.stringify({ tags: [], engineering: 1 }), `${NEW_MEMBER}: ${after.added}`);
      ctx.log('applied: the report is open and the portal has the three changes');

      // 5. Undo Last Change: a plan of its own, applied after its confirmation; the portal is back where it started.
      await palette(page, 'Portal: Undo Last Change…');
      // It names the change before it opens its undo.
      await (await dialogButton(page, /Undo "Changes to 3 members from /, 'Show Undo Plan')).click();
      await planPane(page).getByText('3 of 3 changes chosen').waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
      await titleAction(page, /^Plan/, 'Apply Plan…');
      // Removing the member the apply created deletes them for good: a snapshot is kept first, in a folder asked once.
      const snapshots = path.join(workspace, 'snapshots');
      fs.mkdirSync(path.join(snapshots, 'kept-here'), { recursive: true });
      await chooseFolder(
        page,
        'Where should snapshots of members deleted for good be kept?',
        snapshots,
        'Keep Snapshots Here',
        'kept-here',
      );
      await (await dialogButton(page, 'Apply changes to 3 members of Acme Corporation?', 'Apply to 3 Members')).click();
      // The member the apply created is deleted for good by the undo: confirmed by typing how many.
      await typeToConfirm(page, /Type 1 to confirm/, '1');
      await notified(page, /Applied to Acme Corporation\. Done: 3\./);
      const undone = await states();
      check(
        JSON.stringify(undone) === JSON.stringify(before),
        `after the undo: ${JSON.stringify(undone)}; before: ${JSON.stringify(before)}`,
      );
      check(
        fs.readdirSync(snapshots).some((f) => f.includes(NEW_MEMBER)),
        `a snapshot of ${NEW_MEMBER} in ${snapshots}`,
      );
      ctx.log('undone: the portal is back where it started');
    },
  );
}
