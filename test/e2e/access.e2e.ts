// Access review through the real workbench, the three jobs of an administrator's quarter: who is in a group and at
// what level (the access matrix, filtered to a group, exported); who has not been active for 90 days (the Members
// view's activity filter, then one bulk "Disable"); and "give the new analyst the same access as Mia" (through the
// plan, applied, and the changed row seen in the matrix). Every change is checked on the emulator over HTTP.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Frame, Locator, Page } from 'playwright-core';
import { type Emulator } from '../emulator';
import { answer, quickInput, UI_TIMEOUT_MS, webviewFrame, type E2EWorkbench, demoFlow } from './fixture';
import { Screens } from './forms.e2e';
import type { FlowContext } from './run';
import {
  check,
  choose,
  choosePath,
  contextMenu,
  dialogButton,
  membersDescription,
  membersPane,
  membersRow,
  membersTitleAction,
  palette,
  pick,
  runMenuEntry,
  selectedMembers,
  signInToAcme,
  notified,
  until,
} from './ui';
import { tempDir } from '../support/tempDir';
import { passwordToken } from '../vscode/support/portalHttp';

const PORTAL_LABEL = 'Demo portal';
const ACME = 1;
const DAY = 86_400_000;

async function get<T>(emu: Emulator, bearer: string, p: string): Promise<T> {
  const res = await fetch(`${emu.url}${p}`, {
    headers: { authorization: `Bearer ${bearer}`, accept: 'application/json' },
  });
  check(res.ok, `GET ${p}: ${res.status}`);
  return (await res.json()) as T;
}

/** The matrix page's row of a member (only rows on screen are in the DOM). */
const matrixRow = (frame: Frame, username: string): Locator => frame.locator(`.row[data-username="${username}"]`);

/**
 * Members of Acme's engineering not active for 90 days (never active counts, but not a member who has not started
 * yet: never active, activation e-mail still to come), as the portal holds them now.
 */
async function inactiveEngineers(emu: Emulator, bearer: string): Promise<Map<string, number | null>> {
  const cutoff = Date.now() - 90 * DAY;
  const all = await get<{
    items: Array<{ user: { username: string; lastActive: number | null }; activationType?: unknown }>;
  }>(emu, bearer, `/v3/accounts/${ACME}/members?size=100`);
  const out = new Map<string, number | null>();
  for (const m of all.items) {
    if (m.user.lastActive !== null && m.user.lastActive >= cutoff) continue;
    if (m.user.lastActive === null && (typeof m.activationType === 'number' || m.activationType === 'custom')) continue;
    const v2 = await get<{ groups?: Record<string, number> }>(
      emu,
      bearer,
      `/v2/accounts/${ACME}/members/${encodeURIComponent(m.user.username)}`,
    );
    if ((v2.groups?.engineering ?? 0) > 0) out.set(m.user.username.toLowerCase(), m.user.lastActive);
  }
  return out;
}

/** A folder in the export's folder, so the save dialog shows when it lists that folder. */
const EXPORT_MARKER = 'exports-go-here';

async function exportTo(page: Page, frame: Frame, title: string, name: string): Promise<string[]> {
  const dir = tempDir('access-e2e-');
  const file = path.join(dir, name);
  fs.mkdirSync(path.join(dir, EXPORT_MARKER));
  await frame.locator('#export').click();
  // VS Code's own save dialog in the browser: a path typed into a quick input, accepted with its OK button.
  await choosePath(page, title, file, /^OK$/, EXPORT_MARKER);
  await notified(page, /Exported \d+ members/);
  return fs
    .readFileSync(file, 'utf8')
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\r\n');
}

/** The members' part of an export: the guests and invitations follow it after an empty line. */
function membersPart(lines: readonly string[]): { members: string[]; outsiders: string[] } {
  const blank = lines.indexOf('');
  return blank < 0
    ? { members: [...lines], outsiders: [] }
    : { members: lines.slice(0, blank), outsiders: lines.slice(blank + 1) };
}

/**
 * The auditor's question: who can reach Engineering, at what level, and who there has not been active for 90 days,
 * answered with the matrix's filters alone and exported; the CSV holds exactly those members with their dates.
 */
async function matrixFiltered(wb: E2EWorkbench, emu: Emulator, bearer: string, ctx: FlowContext): Promise<Frame> {
  const page = wb.page;
  await palette(page, 'Open Access Matrix');
  const frame = await webviewFrame(page, '#matrix');
  await frame
    .locator('#status', { hasText: /36 of 36 members read/ })
    .waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  await choose(frame, 'filter-group', 'Engineering');
  await frame
    .locator('#shown', { hasText: /Showing \d+ of 36 members/ })
    .waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  await matrixRow(frame, 'member')
    .locator('.cell', { hasText: 'Standard' })
    .waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  const exported = membersPart(
    await exportTo(page, frame, 'Export the members of group Engineering', 'engineering.csv'),
  );
  const everyone = exported.members;
  // The group's guests and pending invitations follow the members, each row saying which it is.
  check(
    exported.outsiders.some((l) => /^(Guest|Invited),/.test(l)),
    `no guest or invitation after the members: ${exported.outsiders.join(' | ')}`,
  );
  const engineering = (
    await get<Array<{ name: string; members: number }>>(emu, bearer, `/v2/accounts/${ACME}/groups`)
  ).find((g) => g.name === 'engineering');
  check(
    engineering && everyone.length === engineering.members + 2,
    `export: ${everyone.length - 2} rows, the group has ${engineering?.members}`,
  );
  check(
    everyone.some((l) => l.startsWith('member,') && l.endsWith('Standard')),
    everyone.join('\n'),
  );
  ctx.log(`matrix filtered to engineering and exported (${everyone.length - 2} members)`);

  await choose(frame, 'filter-inactive', 'Inactive 90+ days');
  const expected = await inactiveEngineers(emu, bearer);
  await frame
    .locator('#shown', { hasText: `Showing ${expected.size} of 36 members` })
    .waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  const lines = membersPart(
    await exportTo(page, frame, 'Export the members of group Engineering', 'engineering-inactive.csv'),
  ).members;
  check(/group Engineering, inactive 90\+ days/.test(lines[0] ?? ''), `the first line: ${lines[0]}`);
  check(
    /,Last active,State,Organisation permission,Last sign-in,Group permission$/.test(lines[1] ?? ''),
    `header: ${lines[1]}`,
  );
  const rows = lines.slice(2);
  const got = rows.map((l) => (l.split(',')[0] ?? '').toLowerCase());
  check(
    got.length === expected.size && got.every((u) => expected.has(u)),
    `the CSV holds ${got.join(', ')}; inactive in engineering: ${[...expected.keys()].join(', ')}`,
  );
  for (const l of rows) {
    const last = expected.get((l.split(',')[0] ?? '').toLowerCase());
    const day = last === null || last === undefined ? 'never' : new Date(last).toISOString().slice(0, 10);
    check(l.includes(`,${day},`), `${l}: last active ${day}`);
  }
  ctx.log(`inactive 90+ days in engineering: ${rows.length} members, exported with their last-active dates`);
  await shootMatrix(wb, frame, ctx);
  return frame;
}

/** A cell of the matrix whose text is cut off: its row, its column and what it says and shows on hover. */
interface CutOff {
  readonly username: string;
  /** The column as its header's edge names it (matrixColumns.protocol.ts): 'state', 'group', … */
  readonly column: string;
  /** The cell's class that finds it again in its row after a redraw. */
  readonly selector: string;
  readonly text: string;
  readonly title: string;
  /** How many pixels of its text are cut off. */
  readonly over: number;
}

/** The first drawn cell whose text is cut off, or the one in `again` (its width and text, drawn anew). */
function cutOffCell(frame: Frame, again?: Pick<CutOff, 'username' | 'selector'>): Promise<CutOff | undefined> {
  return frame.evaluate((again) => {
    const kinds: Record<string, string> = {
      'col-last': 'last',
      'col-state': 'state',
      'col-perm': 'perm',
      'col-signin': 'signin',
      cell: 'group',
    };
    const cells = again
      ? [...document.querySelectorAll<HTMLElement>(`.row[data-username="${again.username}"] .${again.selector}`)]
      : [...document.querySelectorAll<HTMLElement>('.row .fixed, .row .cell')];
    for (const c of cells) {
      if (!again && c.scrollWidth <= c.clientWidth) continue;
      const selector = [...c.classList].find((k) => k in kinds) ?? '';
      return {
        username: c.closest('.row')?.getAttribute('data-username') ?? '',
        column: kinds[selector] ?? '',
        selector,
        text: c.textContent ?? '',
        title: c.title,
        over: c.scrollWidth - c.clientWidth,
      };
    }
    return undefined;
  }, again);
}

/**
 * A cut-off cell shows its whole text on hover (its title), and its column widens when its header's right edge is
 * dragged, until the text is whole; the page keeps the width when it is drawn again (Developer: Reload Webviews).
 */
async function widenCutOff(page: Page, frame: Frame, ctx: FlowContext): Promise<void> {
  const cut = await cutOffCell(frame);
  check(cut, 'no cell of the matrix is cut off: nothing to widen');
  check(cut.title === cut.text, `the cut-off cell's title "${cut.title}" is not its text "${cut.text}"`);
  const edge = frame.locator(`.head .resizer[data-column="${cut.column}"]`).first();
  const box = await edge.boundingBox();
  check(box, `no edge to drag on the ${cut.column} column's header`);
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + cut.over + 24, y, { steps: 6 });
  await page.mouse.up();
  const whole = await until(
    page,
    async () => {
      const now = await cutOffCell(frame, cut);
      return now && now.over <= 0 ? now : undefined;
    },
    `the ${cut.column} cell of ${cut.username} ("${cut.text}") is whole after the drag`,
  );
  ctx.log(`"${whole.text}" (${cut.column}, ${cut.username}) was cut off by ${cut.over} px; dragged wider, it is whole`);
  // Marked, the page drawn before the reload is told apart from the one drawn after it.
  await frame.evaluate(() => document.body.setAttribute('data-before-reload', ''));
  await palette(page, 'Developer: Reload Webviews');
  await until(
    page,
    async () => {
      const again = await webviewFrame(page, '#matrix');
      const redrawn = await again.evaluate(() => !document.body.hasAttribute('data-before-reload')).catch(() => false);
      const now = redrawn ? await cutOffCell(again, cut).catch(() => undefined) : undefined;
      return now && now.over <= 0 ? now : undefined;
    },
    `the ${cut.column} column keeps its width after the page is drawn again`,
  );
  ctx.log('the page drawn again keeps the width');
}

/** The matrix with its member columns, in a light and a dark theme, for the README. */
async function shootMatrix(wb: E2EWorkbench, frame: Frame, ctx: FlowContext): Promise<void> {
  await frame.locator('.row').first().waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  await new Screens(wb, ctx.imagesDir, ctx.log).inThemes('access-matrix', frame, ['light', 'dark']);
}

/** Clicks on the Members view's first row before its selection shows (each waits a share of the UI's patience). */
const SELECT_ATTEMPTS = 6;

async function disableInactive(page: Page, emu: Emulator, bearer: string, ctx: FlowContext): Promise<void> {
  // The matrix's page is done with here (it is opened again later). Closed, it cannot take the focus while the
  // filter's pick is open, which closes a pick (on a busy machine its theme change was still redrawing it).
  await palette(page, 'View: Close All Editors');
  await page.locator('.editor-group-container .tab').first().waitFor({ state: 'detached', timeout: UI_TIMEOUT_MS });
  await palette(page, 'Filter Members by Activity and State');
  const q = await quickInput(page);
  await q.rows.filter({ hasText: 'Inactive for a number of days' }).first().click();
  await q.input.press('Enter');
  await answer(page, '90', 'Inactive members');
  await membersDescription(page, /inactive 90\+ days/);
  const first = membersPane(page).locator('.monaco-list-row').first();
  const chosen = membersPane(page).locator('.monaco-list-row.selected');
  // Ctrl+A selects all only once the click has put the focus in the list, and the selection is drawn a moment later.
  // The view may still be redrawing its rows for the filter: a click on a row it then replaces selects nothing, so
  // the click is made again (a bounded number of times) until a row is selected.
  for (let attempt = 1; ; attempt++) {
    await first.click();
    const shown = await chosen
      .first()
      .waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS / SELECT_ATTEMPTS })
      .then(
        () => true,
        () => false,
      );
    if (shown) break;
    check(attempt < SELECT_ATTEMPTS, `no row selected after ${attempt} clicks`);
  }
  await page.keyboard.press('Control+a');
  await chosen.nth(1).waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  const selected = await selectedMembers(page);
  check(selected.length > 1, `${selected.length} rows selected`);
  await contextMenu(page, first, 'Disable Members');
  await (await dialogButton(page, /Disable \d+ members/i, /^Disable/)).click();
  await notified(page, /Disabled/);
  const cutoff = Date.now() - 90 * DAY;
  const all = await get<{ items: Array<{ user: { username: string; enabled: boolean; lastActive: number | null } }> }>(
    emu,
    bearer,
    `/v3/accounts/${ACME}/members?size=100`,
  );
  const inactive = all.items.filter((m) => m.user.lastActive === null || m.user.lastActive < cutoff);
  check(inactive.length === selected.length, `${inactive.length} inactive on the portal, ${selected.length} selected`);
  check(
    inactive.every((m) => !m.user.enabled),
    'an inactive member is still enabled',
  );
  check(
    all.items.some((m) => m.user.enabled),
    'the active members stay enabled',
  );
  ctx.log(`filtered to members inactive for 90 days and disabled ${selected.length} in one bulk edit`);
  await membersTitleAction(page, 'Clear Member Search and Filter');
}

async function sameAccess(page: Page, emu: Emulator, bearer: string, ctx: FlowContext): Promise<void> {
  // Not contextMenu(): that helper takes a member search as the command asking for its row, and this command asks
  // for the source member with the same search on purpose.
  await runMenuEntry(page, membersRow(page, 'Tomás Twofactor'), 'Give Same Access as…');
  const q = await quickInput(page);
  const asks = await q.input.getAttribute('placeholder');
  check(asks === 'Copy access from…', `the picker asks "${asks}"`);
  await q.input.fill('mia');
  // The search answers after a pause in typing and replaces the rows: a click on a row of the list before it may land
  // as the rows are swapped, so the row is picked from the answer ("mia" in every row), as a person reads it first.
  await page.waitForFunction(
    () => {
      const rows = [...document.querySelectorAll('.quick-input-widget .quick-input-list .monaco-list-row')];
      return rows.length > 0 && rows.every((r) => /mia/i.test(r.textContent ?? ''));
    },
    undefined,
    { timeout: UI_TIMEOUT_MS },
  );
  await pick(page, 'Mia Member');
  // The next question, not the pick it replaces: Enter goes to the options.
  const options = await quickInput(page);
  await options.widget
    .locator('.quick-input-title', { hasText: 'Give Tomás Twofactor the groups of Mia Member' })
    .waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  await options.input.press('Enter');
  await page.locator('.pane-header', { hasText: 'Plan' }).first().waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  const before = await get<{ groups?: Record<string, number> }>(emu, bearer, `/v2/accounts/${ACME}/members/demo-2fa`);
  const mia = { engineering: 4, marketing: 1, social: 16 };
  const sameAsMia = (g: Record<string, number> | undefined) =>
    Object.entries(mia).every(([name, level]) => g?.[name] === level);
  check(!sameAsMia(before.groups), `demo-2fa already has Mia's groups: ${JSON.stringify(before.groups)}`);
  await palette(page, 'Apply Plan');
  await (await dialogButton(page, /Apply changes to 1 members? of Acme Corporation/, /^Apply to 1 Members?/)).click();
  await notified(page, /Applied to Acme Corporation/);
  const after = await get<{ groups?: Record<string, number> }>(emu, bearer, `/v2/accounts/${ACME}/members/demo-2fa`);
  check(sameAsMia(after.groups), `after: ${JSON.stringify(after.groups)}`);
  await palette(page, 'Open Access Matrix');
  const frame = await webviewFrame(page, '#matrix');
  await choose(frame, 'filter-group', 'Social Club');
  await matrixRow(frame, 'demo-2fa')
    .locator('.cell', { hasText: 'Administrator' })
    .waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  ctx.log('gave Tomás Twofactor the same access as Mia Member through the plan; the matrix shows the new row');
}

export async function run(ctx: FlowContext): Promise<void> {
  await demoFlow(ctx, 'access', { settings: () => ({ 'portal.pageSize': 100 }) }, async ({ wb, page, emu }) => {
    await signInToAcme(page, PORTAL_LABEL, { width: 560, height: 1000, keep: ['Members'] });
    const bearer = await passwordToken(emu.url, 'demo', 'demo');
    ctx.log('signed in; the Members view shows Acme Corporation');
    await widenCutOff(page, await matrixFiltered(wb, emu, bearer, ctx), ctx);
    await disableInactive(page, emu, bearer, ctx);
    await sameAccess(page, emu, bearer, ctx);
  });
}
