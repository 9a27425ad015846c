// Offboarding three leavers through the real workbench, and undoing one of them: three rows selected in the Members
// view, Offboard Members… from their context menu, no option ticked, the plan applied after its one confirmation; on
// the portal all three are disabled and in no group. Show Change History… names the change "Offboard 3: …"; chosen
// there, its undo is narrowed to one person and applied: that person is back as before, the other two are not. The
// history then says "undone for 1 of 3", and the change still offers the undo of exactly the other two.
import type { Page } from 'playwright-core';
import type { Emulator } from '../emulator';
import { passwordToken, portalJson } from '../vscode/support/portalHttp';
import { quickInput, demoFlow, UI_TIMEOUT_MS } from './fixture';
import { planPane } from './planUi';
import type { FlowContext } from './run';
import {
  check,
  contextMenu,
  dialogButton,
  membersRow,
  palette,
  selectedMembers,
  signInToAcme,
  notified,
  until,
} from './ui';

const PORTAL_LABEL = 'Demo portal';
const ACME = 1;
/** Three leavers, each in a group or more (Nikos is a group administrator of the Social Club). */
const LEAVERS = [
  { name: 'Ivan Ibrahim', username: 'ivan.ibrahim' },
  { name: 'Keiko García', username: 'keiko.garcia' },
  { name: 'Nikos López', username: 'nikos.lopez' },
] as const;
/** The one whose offboarding is undone. */
const BACK = LEAVERS[1];

/** A member as the portal holds them: enabled, and their groups' levels (read as the demo user, not the extension). */
interface Held {
  enabled: boolean;
  groups: Record<string, number>;
}

async function held(emu: Emulator, token: string, username: string): Promise<Held> {
  const v3 = await portalJson<{ user: { enabled: boolean } }>(
    emu.url,
    token,
    'GET',
    `/v3/accounts/${ACME}/members/${username}`,
  );
  const v2 = await portalJson<{ groups?: Record<string, number> }>(
    emu.url,
    token,
    'GET',
    `/v2/accounts/${ACME}/members/${username}`,
  );
  check(v3.status === 200 && v2.status === 200, `GET ${username}: ${v3.status}, ${v2.status}`);
  return { enabled: v3.body.user.enabled, groups: v2.body.groups ?? {} };
}

const same = (a: Held, b: Held): boolean =>
  a.enabled === b.enabled &&
  JSON.stringify(Object.entries(a.groups).sort()) === JSON.stringify(Object.entries(b.groups).sort());

/** The three selected with a click and two Ctrl-clicks, as a person does. */
async function selectLeavers(page: Page): Promise<void> {
  const [first, ...more] = LEAVERS;
  await membersRow(page, first.name).click();
  for (const l of more) await membersRow(page, l.name).click({ modifiers: ['Control'] });
  const selected = await selectedMembers(page);
  check(
    selected.length === LEAVERS.length && LEAVERS.every((l) => selected.includes(l.name)),
    `selected: ${selected.join(', ')}`,
  );
}

/** Show Change History…, its offboarding row on screen; answers that row's label and description. */
async function historyRow(page: Page): Promise<{ label: string; description: string; pick(): Promise<void> }> {
  await palette(page, 'Portal: Show Change History…');
  const q = await quickInput(page);
  // The offboarding itself, not its undo (named 'Undo "Offboard 3: …" for …').
  const row = q.rows.filter({ has: page.locator('.label-name', { hasText: /^"Offboard 3/ }) }).first();
  await row.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  return {
    label: (await row.locator('.label-name').first().innerText()).trim(),
    description: (await row.locator('.label-description').first().innerText()).trim(),
    pick: () => row.click(),
  };
}

/** The pick of whose changes the undo puts back: its rows' labels, once listed. */
async function whoseRows(page: Page): Promise<string[]> {
  const q = await quickInput(page);
  await q.widget
    .locator('.quick-input-title', { hasText: /^Undo "Offboard 3/ })
    .waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  await q.rows.first().waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  // A row the list reuses may keep the previous pick's detail, hidden: only what shows is read.
  return (await q.rows.locator('.label-name').filter({ visible: true }).allInnerTexts()).map((l) => l.trim());
}

export async function run(ctx: FlowContext): Promise<void> {
  await demoFlow(ctx, 'offboard', { settings: () => ({ 'portal.pageSize': 100 }) }, async ({ emu, wb }) => {
    const page = wb.page;
    const token = await passwordToken(emu.url, 'demo', 'demo');
    const before = new Map<string, Held>();
    for (const l of LEAVERS) before.set(l.username, await held(emu, token, l.username));
    const places = [...before.values()].reduce((n, h) => n + Object.keys(h.groups).length, 0);
    check(
      [...before.values()].every((h) => h.enabled && Object.keys(h.groups).length > 0),
      `the leavers before: ${JSON.stringify([...before])}`,
    );
    // With the Explorer folded, the Members view gets the side bar's height: all 36 rows fit.
    await signInToAcme(page, PORTAL_LABEL, { width: 560, height: 1000, keep: ['Members'] });
    ctx.log('signed in; the Members view shows Acme Corporation');

    // 1. Offboard Members… on the three, nothing more than disabled and out of every group; applied.
    await selectLeavers(page);
    await contextMenu(page, membersRow(page, LEAVERS[0].name), 'Offboard Members…');
    const options = await quickInput(page);
    await options.widget
      .locator('.quick-input-title', { hasText: 'Offboard 3 members: disabled and removed from every group' })
      .waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
    await options.input.press('Enter');
    await (
      await dialogButton(
        page,
        new RegExp(
          `Apply changes to 3 members of Acme Corporation\\?[\\s\\S]*Disable 3, remove from ${places} group places`,
        ),
        'Apply to 3 Members',
      )
    ).click();
    await notified(page, /Applied to Acme Corporation\. Done: 3\./);
    for (const l of LEAVERS) {
      const h = await held(emu, token, l.username);
      check(!h.enabled && Object.keys(h.groups).length === 0, `${l.username} after offboarding: ${JSON.stringify(h)}`);
    }
    ctx.log(`offboarded ${LEAVERS.map((l) => l.username).join(', ')}: disabled and in no group on the portal`);

    // 2. The history names it; its undo, narrowed to one person, puts that person back and nobody else.
    const named = await historyRow(page);
    check(
      new RegExp(`^"Offboard 3: disable, remove from ${places} group places" \\(`).test(named.label),
      `the history names it ${named.label}`,
    );
    ctx.log(`the history names it ${named.label} (${named.description})`);
    await named.pick();
    const offered = await whoseRows(page);
    check(
      offered.length === 3 && LEAVERS.every((l) => offered.includes(l.username)),
      `the undo offers: ${offered.join(', ')}`,
    );
    // Every one is ticked at first: the two staying offboarded are unticked.
    const q = await quickInput(page);
    for (const l of LEAVERS.filter((x) => x !== BACK)) {
      const row = q.rows.filter({ hasText: l.username }).first();
      await row.click();
      await until(
        page,
        async () => ((await row.getAttribute('aria-checked')) === 'false' ? true : undefined),
        `${l.username} is unticked`,
      );
    }
    await q.input.press('Enter');
    // The undo's plan replaces the offboarding's in the Plan view: only the one person's rows.
    await until(
      page,
      async () => {
        const rows = (await planPane(page).locator('.monaco-list-row').allInnerTexts()).join('\n');
        return rows.includes(BACK.username) && LEAVERS.every((l) => l === BACK || !rows.includes(l.username))
          ? true
          : undefined;
      },
      `the Plan view shows the undo for ${BACK.username} alone`,
    );
    await palette(page, 'Portal: Apply Plan…');
    await (await dialogButton(page, 'Apply changes to 1 member of Acme Corporation?', 'Apply to 1 Member')).click();
    await notified(page, /Applied to Acme Corporation\. Done: 1\./);
    const back = await held(emu, token, BACK.username);
    check(same(back, before.get(BACK.username)!), `${BACK.username} after the undo: ${JSON.stringify(back)}`);
    for (const l of LEAVERS.filter((x) => x !== BACK)) {
      const h = await held(emu, token, l.username);
      check(!h.enabled && Object.keys(h.groups).length === 0, `${l.username} after the undo: ${JSON.stringify(h)}`);
    }
    ctx.log(`undid ${BACK.username} alone: back as before; the other two stay offboarded`);

    // 3. The history says how far the undo went, and the other two can still be put back.
    const after = await historyRow(page);
    check(after.description === 'undone for 1 of 3', `the history says "${after.description}"`);
    await after.pick();
    const left = await whoseRows(page);
    const others = LEAVERS.filter((x) => x !== BACK).map((l) => l.username);
    check(
      left.length === 2 && others.every((u) => left.includes(u)),
      `the undo now offers: ${left.join(', ')} (expected ${others.join(', ')})`,
    );
    await page.keyboard.press('Escape');
    ctx.log(`the history says "undone for 1 of 3" and still offers the undo of ${others.join(' and ')}`);
  });
}
