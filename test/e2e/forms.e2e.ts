// The forms through the real workbench: each opened from a tree's context menu, filled, saved, and then
// checked on the emulator over HTTP (not through the extension). Also: the member named like markup renders
// as text, and a failed save keeps the input. Screenshots of each form in a dark and a light theme:
// form-<name>-<theme>.png in the run's images folder (docs/images/ with --update-docs; the docs show them).
import * as path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import {
  answer,
  expand,
  openViewContainer,
  treeRow,
  UI_TIMEOUT_MS,
  type E2EWorkbench,
  demoFlow,
  DemoReader,
} from './fixture';
import {
  banner,
  check,
  choose,
  colorTheme,
  contextMenu,
  fill,
  fillAll,
  formFrame,
  memberRow,
  palette,
  pick,
  save,
  THEMES,
  type Theme,
  until,
} from './ui';
import type { FlowContext } from './run';

const PORTAL_LABEL = 'Demo portal';

/** Direct reads of the emulator's state with the demo user's own token. */
class PortalState extends DemoReader {
  async read<T>(p: string): Promise<T> {
    const res = await this.get<T>(p);
    check(res.status === 200, `GET ${p}: ${res.status}`);
    return res.body;
  }

  async clientCredentialsWork(clientId: string, clientSecret: string): Promise<boolean> {
    const q = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: clientId,
      client_secret: clientSecret,
      scope: 'read write',
    });
    return (await fetch(`${this.url}/oauth/token?${q}`)).ok;
  }
}

export class Screens {
  constructor(
    private readonly wb: E2EWorkbench,
    private readonly dir: string,
    private readonly log: (l: string) => void,
  ) {}

  /**
   * Switches the colour theme with "Preferences: Color Theme", as a person would, and waits until `frame` (a webview,
   * which gets the new colours by message) has taken it.
   */
  async theme(theme: Theme, frame: Frame): Promise<void> {
    await colorTheme(this.wb.page, theme);
    await frame.locator(`body.vscode-${theme}`).waitFor({ state: 'attached', timeout: UI_TIMEOUT_MS });
  }

  /** A screenshot of what is on screen in each theme, `name`-<theme>.png, left in the last theme. */
  async inThemes(name: string, frame: Frame, themes: readonly Theme[]): Promise<void> {
    for (const theme of themes) {
      await this.theme(theme, frame);
      const file = path.join(this.dir, `${name}-${theme}.png`);
      await this.wb.screenshot(file);
      this.log(`screenshot ${path.relative(process.cwd(), file)}`);
    }
  }

  /** One screenshot per theme of the form on screen now, from its top; ends in the dark theme. */
  async both(name: string, frame: Frame): Promise<void> {
    await palette(this.wb.page, 'Notifications: Clear All Notifications');
    // The top of the form, whichever field was filled last.
    await frame.evaluate(() => window.scrollTo(0, 0));
    await this.inThemes(`form-${name}`, frame, ['dark', 'light']);
    await this.theme('dark', frame);
  }
}

async function closeEditors(page: Page): Promise<void> {
  await palette(page, 'View: Close All Editors');
}

/** The form's visible text calls the portal's account an organisation: the word "account" is not in it. */
async function saysOrganisation(frame: Frame, form: string): Promise<void> {
  const text = await frame.locator('body').innerText();
  const hit = /[^\n]*\baccounts?\b[^\n]*/i.exec(text);
  check(!hit, `the ${form} form still says "account": ${hit?.[0]}`);
}

/** The editor tab of the form on screen, marked "●" while the form holds unsaved changes. */
function unsavedTab(page: Page) {
  return page.locator('.tabs-container .tab.active', { hasText: '\u25CF' });
}

/** A success banner is a status line (an icon and words), not a bordered box that looks like a field. */
async function statusLine(frame: Frame): Promise<void> {
  const look = await frame.locator('.banner.ok').evaluate((e) => ({
    border: getComputedStyle(e).borderTopStyle,
    icon: e.querySelector('.icon')?.textContent ?? '',
  }));
  check(look.border === 'none' && look.icon !== '', `the success banner looks like a box: ${JSON.stringify(look)}`);
}

async function detached(frame: Frame): Promise<boolean> {
  for (const end = Date.now() + UI_TIMEOUT_MS; Date.now() < end; await new Promise((r) => setTimeout(r, 200)))
    if (frame.isDetached()) return true;
  return false;
}

export async function run(ctx: FlowContext): Promise<void> {
  await demoFlow(
    ctx,
    'forms',
    { settings: () => ({ 'workbench.colorTheme': THEMES.dark }) },
    async ({ wb, page, emu }) => {
      const portal = new PortalState(emu.url);
      let alerted = false;
      // An alert() from a webview would be a script run from server text.
      page.on('dialog', (d) => {
        alerted = true;
        void d.dismiss();
      });
      await page.setViewportSize({ width: 1280, height: 860 });
      const screens = new Screens(wb, ctx.imagesDir, ctx.log);
      await openViewContainer(page, 'Portal');

      await expand(page, 'Explorer', PORTAL_LABEL, 'Sign in…');
      await treeRow(page, 'Explorer', 'Sign in…').click();
      await answer(page, 'demo', '(1/2)');
      await answer(page, 'demo', '(2/2)');
      await treeRow(page, 'Explorer', 'Acme Corporation').waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
      ctx.log('signed in');
      const accounts = await portal.read<Array<{ id: number; name: string }>>('/v3/accounts');
      const acme = accounts.find((a) => a.name === 'acme')?.id;
      check(acme, 'no acme account');
      const groups = await portal.read<Array<{ id: number; name: string }>>(`/v2/accounts/${acme}/groups`);
      const groupId = (name: string): number => {
        const id = groups.find((g) => g.name === name)?.id;
        check(id, `no group ${name}`);
        return id;
      };

      // ---- Account overview (account context menu): rename the locale.
      await contextMenu(page, treeRow(page, 'Explorer', 'Acme Corporation'), 'Organisation Overview');
      let frame = await formFrame(page, 'Acme Corporation');
      await frame.locator('vscode-progress-bar').first().waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
      await fill(frame, 'locale', 'en_GB');
      await saysOrganisation(frame, 'overview');
      await screens.both('overview', frame);
      await save(frame);
      await banner(frame, 'ok');
      const account = await portal.read<{ locale: string | null; friendlyName: string }>(`/v3/accounts/${acme}`);
      check(account.locale === 'en_GB', `the locale is ${account.locale}`);
      ctx.log('account overview: locale saved');
      await closeEditors(page);

      // ---- Edit member assignments (member context menu in the Members view).
      await treeRow(page, 'Explorer', 'Acme Corporation').click();
      await contextMenu(page, await memberRow(page, 'Mia Member'), 'Edit Assignments…');
      frame = await formFrame(page, 'Edit assignments');
      // The chosen tags are listed by name (the drop-down's face only counts them).
      const miaTags = (await portal.read<{ tags: string[] }>(`/v3/accounts/${acme}/members/member`)).tags;
      const chips = await frame.locator('#tags-chosen li').allTextContents();
      check(
        miaTags.length > 0 && [...chips].sort().join() === [...miaTags].sort().join(),
        `the tags read ${chips.join(', ')}, not ${miaTags.join(', ')}`,
      );
      check(!(await frame.locator('#unsaved').isVisible()), 'an untouched form says it has unsaved changes');
      await saysOrganisation(frame, 'assignments');
      await choose(frame, `group-${groupId('engineering')}`, 'Administrator');
      await choose(frame, `group-${groupId('marketing')}`, 'None');
      await choose(frame, 'accountPermission', 'Group creator');
      // An edit shows in the form and on the panel's tab until it is saved.
      await frame.locator('#unsaved').waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
      await unsavedTab(page).waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
      await screens.both('assignments', frame);

      // A server error first: the form says so and keeps every value.
      emu.setFaults([{ kind: 'status', status: 500, path: '/v3/accounts', method: 'PATCH', count: 1 }]);
      await save(frame);
      const error = await banner(frame, 'error');
      ctx.log(`failed save says: ${error}`);
      const kept = await frame
        .locator(`#group-${groupId('engineering')}`)
        .evaluate((e) => (e as HTMLElement & { value: string }).value);
      check(kept === '16', `the engineering choice was lost after the failure (${kept})`);
      check(await frame.locator('#unsaved').isVisible(), 'a failed save dropped the unsaved marker');
      emu.clearFaults();
      await save(frame);
      await banner(frame, 'ok');
      await statusLine(frame);
      await frame.locator('#unsaved').waitFor({ state: 'hidden', timeout: UI_TIMEOUT_MS });
      await unsavedTab(page).waitFor({ state: 'detached', timeout: UI_TIMEOUT_MS });
      const mia = await portal.read<{ groups: Record<string, number>; accountPermission: number }>(
        `/v2/accounts/${acme}/members/member`,
      );
      check(mia.groups.engineering === 16, `engineering is ${mia.groups.engineering}`);
      check(mia.groups.marketing === undefined, 'still in marketing');
      check(mia.accountPermission === 4, `account permission is ${mia.accountPermission}`);
      ctx.log(
        'assignments: tags listed by name; unsaved marker in the form and on the tab until saved; groups and permission saved (after a kept-input failure)',
      );
      await closeEditors(page);

      // ---- A portal that does not answer two of the form's reads (an HTML 404 page each) still shows the form, says
      // what it lacks, and offers "Unknown" where a permission is unknown. (Names made of markup: test/e2e/hostile.e2e.ts.)
      const yaraName = 'Yara Haddad';
      emu.setFaults([
        // Not once only: hovering the row on the way to its menu may read the tooltip's v2 record first.
        { kind: 'error-body', status: 404, shape: 'html', count: 5, path: `/v2/accounts/${acme}/members/yara.haddad` },
        { kind: 'error-body', status: 404, shape: 'html', count: 1, path: `/v3/accounts/${acme}/member-tags` },
      ]);
      await contextMenu(page, await memberRow(page, yaraName), 'Edit Assignments…');
      frame = await formFrame(page, 'Edit assignments');
      emu.clearFaults();
      const subtitle = (await frame.locator('.subtitle').textContent()) ?? '';
      check(subtitle.includes(yaraName), `the form is not about ${yaraName}: ${subtitle}`);
      check(!alerted, 'a dialog opened');
      await frame.locator('#tags').waitFor({ state: 'attached', timeout: UI_TIMEOUT_MS });
      const notices = await frame.locator('#notices').innerText();
      check(
        notices.includes("did not answer the member's v2 read") && notices.includes('did not answer the tag list'),
        `the form does not say what it lacks: ${notices}`,
      );
      check((await frame.locator('#notices a').count()) === 0, 'the notices carry a link');
      const unknown = await frame
        .locator(`#group-${groupId('engineering')}`)
        .evaluate((e) => (e as HTMLElement & { value: string }).value);
      check(unknown === '-1', `a permission the portal did not give shows as ${unknown}, not "Unknown"`);
      ctx.log('missing reads are named, permissions "Unknown"');
      await closeEditors(page);

      // ---- Quick-pick path: change one group permission without a webview.
      await contextMenu(page, await memberRow(page, 'Lena Locke'), 'Change Permission in a Group…');
      await pick(page, 'Social Club');
      await pick(page, 'Standard');
      const lenaSocial = async (): Promise<number | undefined> =>
        (await portal.read<{ groups: Record<string, number> }>(`/v2/accounts/${acme}/members/lena.locked`)).groups
          .social;
      await until(page, async () => ((await lenaSocial()) === 4 ? true : undefined), 'Lena is Standard in Social Club');
      ctx.log('quick pick: permission changed');

      // ---- Create group (account context menu).
      await contextMenu(page, treeRow(page, 'Explorer', 'Acme Corporation'), 'New Group…');
      frame = await formFrame(page, 'Create group');
      await saysOrganisation(frame, 'group');
      await fillAll(frame, { name: 'design-team', friendlyName: 'Design Team' });
      await frame.locator('#component-tasks').click();
      await frame.locator('#chat').click();
      await fill(frame, 'headerColor', '#1e40af');
      await screens.both('group', frame);
      await save(frame);
      await banner(frame, 'ok');
      const created = (
        await portal.read<
          Array<{ name: string; friendlyName: string; disableChat: boolean; components: Array<{ name: string }> }>
        >(`/v2/accounts/${acme}/groups`)
      ).find((g) => g.name === 'design-team');
      check(
        created && created.friendlyName === 'Design Team' && created.disableChat,
        'the group was not created as entered',
      );
      check(
        created.components.some((c) => c.name === 'tasks'),
        'tasks is not enabled',
      );
      ctx.log('group created');
      await closeEditors(page);

      // ---- Edit group (group context menu).
      await expand(page, 'Explorer', 'Acme Corporation', 'Marketing');
      await contextMenu(page, treeRow(page, 'Explorer', 'Marketing'), 'Edit Group…');
      frame = await formFrame(page, 'Edit group');
      await fill(frame, 'friendlyName', 'Marketing & Sales');
      await save(frame);
      await banner(frame, 'ok');
      const marketing = await portal.read<{ friendlyName: string }>(
        `/v2/accounts/${acme}/groups/${groupId('marketing')}`,
      );
      check(marketing.friendlyName === 'Marketing & Sales', `marketing is called ${marketing.friendlyName}`);
      ctx.log('group edited');
      await closeEditors(page);

      // ---- New member (account context menu).
      await contextMenu(page, treeRow(page, 'Explorer', 'Acme Corporation'), 'New Member…');
      frame = await formFrame(page, 'Add member');
      await saysOrganisation(frame, 'member');
      await fillAll(frame, {
        username: 'nora.new',
        name: 'Nora New',
        email: 'nora.new@acme.example',
        password: 'Nora-pass-123',
      });
      await choose(frame, 'accountPermission', 'Group creator');
      await screens.both('member', frame);
      await save(frame);
      await banner(frame, 'ok');
      const nora = await portal.read<{ permission: number; user: { name: string } }>(
        `/v3/accounts/${acme}/members/nora.new`,
      );
      check(nora.user.name === 'Nora New' && nora.permission === 4, 'the member was not created as entered');
      check((await frame.locator('#password input').inputValue()) === '', 'the password field was filled back in');
      ctx.log('member created');
      await closeEditors(page);

      // ---- Create application (portal context menu in the Applications view).
      await contextMenu(page, treeRow(page, 'Applications', PORTAL_LABEL), 'Create Application…');
      frame = await formFrame(page, 'Create application');
      // Typing goes to the first field, and the empty required Name is not an error until it was left or saved.
      const focused = await frame.evaluate(() => document.activeElement?.id ?? '');
      check(focused === 'name', `the focus is on "${focused}", not on Name`);
      const nameInvalid = () =>
        frame.locator('#name').evaluate((e) => e.matches(':invalid') || e.hasAttribute('invalid'));
      check(!(await nameInvalid()), 'the empty Name field shows as an error before anything was typed');
      await saysOrganisation(frame, 'application');
      await frame.locator('#name input').press('Tab');
      check(await nameInvalid(), 'Name left empty does not show as missing');
      await fillAll(frame, {
        name: 'Release bot',
        description: 'Posts release notes',
        deviceOs: 'Debian 12',
        appVersion: '1.0',
        bundleId: 'com.example.release-bot',
      });
      await choose(frame, 'platform', 'Linux');
      // The paired fields sit side by side or one under the other, never over each other.
      const boxes = await frame.evaluate(() =>
        ['name', 'platform', 'deviceType', 'deviceModel', 'deviceOs', 'appVersion', 'bundleId'].map((id) => {
          const r = (document.getElementById(id)?.parentElement ?? document.body).getBoundingClientRect();
          return { id, x: r.x, y: r.y, w: r.width, h: r.height };
        }),
      );
      for (const a of boxes)
        for (const b of boxes)
          check(
            a === b || a.x + a.w <= b.x || b.x + b.w <= a.x || a.y + a.h <= b.y || b.y + b.h <= a.y,
            `the fields ${a.id} and ${b.id} are drawn over each other`,
          );
      await screens.both('application', frame);
      await save(frame);
      const secret = frame.locator('#client-secret');
      await secret.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
      const clientId = ((await frame.locator('#client-id').textContent()) ?? '').trim();
      const clientSecret = ((await secret.textContent()) ?? '').trim();
      const apps = await portal.read<Array<{ clientId: string; name: string; platform: string }>>('/v3/applications');
      check(
        apps.some((a) => a.clientId === clientId && a.name === 'Release bot' && a.platform === 'LINUX'),
        'the application is not on the portal',
      );
      check(await portal.clientCredentialsWork(clientId, clientSecret), 'the shown credentials do not work');
      // The secret comes first, under the heading; the one way on is Done (Rotate secret and Close wait below).
      // (No named functions inside evaluate: the test's compiler wraps them in a helper the page does not have.)
      const layout = await frame.evaluate(() => {
        const credentials = document.getElementById('credentials');
        const details = document.querySelector('#app > dl.kv');
        const rotate = document.getElementById('rotate');
        return {
          first: Boolean(credentials && details && credentials.compareDocumentPosition(details) & 4),
          exits: [...document.querySelectorAll<HTMLElement>('vscode-button')].filter(
            (b) => b.offsetParent !== null && /^(Done|Close)/.test(b.textContent?.trim() ?? ''),
          ).length,
          rotate: rotate !== null && rotate.offsetParent !== null,
          details: details?.textContent ?? '',
        };
      });
      check(layout.first, 'the credentials are not above the application details');
      check(
        layout.exits === 1 && !layout.rotate,
        `the credentials offer ${layout.exits} ways out, rotate ${layout.rotate}`,
      );
      // Enum values read as words: "Linux", never the portal's code.
      check(
        layout.details.includes('Linux') && !layout.details.includes('LINUX'),
        `the details show the platform's code: ${layout.details}`,
      );
      await screens.both('application-credentials', frame);
      // Done hides the secret and closes the panel.
      await frame.locator('#done').click();
      check(await detached(frame), 'the panel is still open after Done');
      ctx.log(
        'application: Name focused and not red until left empty; created; its credentials work, shown first with Done the only way out; Done closed the panel',
      );
      await closeEditors(page);

      // ---- Rotate its secret (application context menu): the new secret is shown the same way, the old one stops.
      await expand(page, 'Applications', PORTAL_LABEL, 'Release bot');
      await contextMenu(page, treeRow(page, 'Applications', 'Release bot'), 'Rotate Client Secret…');
      frame = await formFrame(page, 'Release bot');
      await frame.locator('#rotate').click();
      // Rotating breaks every client of the old secret, so VS Code asks first, naming the application.
      const confirm = page.locator('.monaco-dialog-box');
      await confirm.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
      const asked = await confirm.innerText();
      check(
        asked.includes('Rotate the secret of "Release bot"?') && asked.includes('stops working'),
        `the confirmation says what rotating does: ${asked}`,
      );
      await confirm.locator('.monaco-button', { hasText: 'Rotate Secret' }).click();
      const rotated = frame.locator('#client-secret');
      await rotated.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
      const newSecret = ((await rotated.textContent()) ?? '').trim();
      check(
        ((await frame.locator('#client-id').textContent()) ?? '').trim() === clientId,
        'the rotated credentials name another application',
      );
      check(newSecret !== clientSecret, 'the secret did not change');
      check(await portal.clientCredentialsWork(clientId, newSecret), 'the new secret does not work');
      check(!(await portal.clientCredentialsWork(clientId, clientSecret)), 'the old secret still works');
      await frame.locator('#use-credentials').waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
      ctx.log(
        'secret rotated from the context menu after a confirmation naming it; shown with its copy buttons; the old one stopped working',
      );
      check(!alerted, 'a dialog opened');
    },
  );
}
