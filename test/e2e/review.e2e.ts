// The quarterly access review through the real workbench: Access Review… on Acme (members, guest shares and pending
// invitations, the organisation read first); the guests whose share never expires filtered and decided "Expire share"
// in one bulk decision; two members inactive for half a year decided "Remove from the organisation" one by one. The
// window is reloaded: Access Review… resumes the review with its decisions (screenshots of it, dark and light). Finish
// Review puts exactly the two removals in the Plan view; Apply sends exactly those to the portal (its request counts
// and its state say so, the guests and invitations untouched), and the evidence (every row with its decision and
// reason, the summary, the manifest and its digest) is on disk. Screenshots: review-dark.png, review-light.png.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { sha256 } from '../../src/features/review/core/evidence';
import type { Emulator } from '../emulator';
import { passwordToken, portalJson } from '../vscode/support/portalHttp';
import { extensionStorage, demoFlow, UI_TIMEOUT_MS, waitForWorkbench, webviewFrame } from './fixture';
import { Screens } from './forms.e2e';
import { planPane } from './planUi';
import type { FlowContext } from './run';
import { check, choose, dialogButton, palette, pick, signInToAcme, notified, titleAction, until } from './ui';

const PORTAL_LABEL = 'Demo portal';
const ACME = 1;
const DAY = 86_400_000;
/** Inactive for half a year and members of Globex too: removing them from Acme deletes no user for good. */
const LEAVERS = ['alice.muller', 'bruno.dubois'];
const GUEST_REASON = 'Shared with no end date';
const LEAVER_REASON = 'Left the company; inactive for months';

interface Share {
  email: string;
  dateExpire: number | null;
}

/** What the portal holds now, read as the demo user, not through the extension. */
class Acme {
  private constructor(
    private readonly emu: Emulator,
    private readonly token: string,
  ) {}

  static async signIn(emu: Emulator): Promise<Acme> {
    return new Acme(emu, await passwordToken(emu.url, 'demo', 'demo'));
  }

  private async get<T>(p: string): Promise<T> {
    const r = await portalJson<T>(this.emu.url, this.token, 'GET', p);
    check(r.status === 200, `GET ${p}: ${r.status}`);
    return r.body;
  }

  async members(): Promise<Array<{ user: { username: string; lastActive: number | null } }>> {
    return (
      await this.get<{ items: Array<{ user: { username: string; lastActive: number | null } }> }>(
        `/v3/accounts/${ACME}/members?size=100`,
      )
    ).items;
  }

  async shares(): Promise<Share[]> {
    return (await this.get<{ items: Share[] }>('/v3/shares')).items;
  }

  async invitations(): Promise<Array<{ request: { status: string } }>> {
    return (await this.get<{ items: Array<{ request: { status: string } }> }>(`/v3/accounts/${ACME}/invites`)).items;
  }
}

/** A row of the review page, by who it is about (the username or the e-mail address). */
const reviewRow = (frame: Frame, identity: string) => frame.locator('tbody tr', { hasText: identity }).first();

async function counts(frame: Frame, text: string): Promise<void> {
  await frame.locator('#counts', { hasText: text }).waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
}

async function reason(frame: Frame, text: string): Promise<void> {
  await frame.locator('#reason input').fill(text);
}

/** Access Review… from the palette on Acme, the whole organisation; the page once its rows are in. */
async function openReview(page: Page, rows: number): Promise<Frame> {
  await palette(page, 'Portal: Access Review…');
  await pick(page, 'Acme Corporation');
  return reviewPage(page, rows);
}

async function reviewPage(page: Page, rows: number): Promise<Frame> {
  await pick(page, 'The whole organisation');
  const frame = await webviewFrame(page, '#finish');
  await frame
    .locator('#counts', { hasText: new RegExp(`of ${rows} decided`) })
    .waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  return frame;
}

/** Guests with no expiry, in one bulk decision; then two inactive members, one by one. */
async function decide(frame: Frame, rows: number, noExpiry: readonly string[], ctx: FlowContext): Promise<void> {
  await choose(frame, 'filter-kind', 'Guest');
  await frame.locator('#filter-no-expiry').click();
  await frame
    .locator('#decide-shown', { hasText: `Decide for the ${noExpiry.length} rows shown` })
    .waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  const shown = await frame.locator('tbody tr').count();
  check(
    shown === noExpiry.length,
    `the filter shows ${shown} rows, the portal has ${noExpiry.length} shares with no expiry`,
  );
  for (const email of noExpiry) await reviewRow(frame, email).waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  await choose(frame, 'decision', 'Expire share');
  await reason(frame, GUEST_REASON);
  await frame.locator('#decide-shown').click();
  await counts(frame, `${noExpiry.length} of ${rows} decided`);
  for (const email of noExpiry)
    await reviewRow(frame, email)
      .locator('td.decision', { hasText: 'Expire share' })
      .waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  ctx.log(`guests with no expiry: ${noExpiry.join(', ')}; decided "Expire share" for the ${noExpiry.length} shown`);

  // The guest-only filter is let go, or no member would show.
  await frame.locator('#filter-no-expiry').click();
  await choose(frame, 'filter-kind', 'Member');
  await choose(frame, 'filter-inactive', 'Inactive 180+ days');
  await choose(frame, 'decision', 'Remove from the organisation');
  await reason(frame, LEAVER_REASON);
  for (const [i, username] of LEAVERS.entries()) {
    await reviewRow(frame, username).locator('vscode-button', { hasText: 'Decide' }).click();
    await counts(frame, `${noExpiry.length + i + 1} of ${rows} decided`);
  }
  ctx.log(`decided "Remove from the organisation" for ${LEAVERS.join(', ')} (inactive 180+ days)`);
}

/**
 * The page as a person reads it, beside the side bar: the Level control only while "Lower to…" is the decision, and
 * every column (the decision and its reason too) within the page's width, none cut off at its right edge.
 */
async function pageFits(frame: Frame): Promise<void> {
  const decision = await frame.locator('#decision').evaluate((e) => (e as HTMLElement & { value: string }).value);
  check(decision !== 'lower', `the decision is ${decision}`);
  check(
    !(await frame.locator('#decision-level').isVisible()),
    'the Level control shows while the decision is not Lower',
  );
  const width = await frame.evaluate(() => {
    const cells = [...document.querySelectorAll('th, td')].map((c) => ({
      w: c.getBoundingClientRect().width,
      t: (c.textContent ?? '').slice(0, 80),
    }));
    const widest = cells.sort((a, b) => b.w - a.w).slice(0, 3);
    return {
      page: document.documentElement.clientWidth,
      content: document.documentElement.scrollWidth,
      widest: widest.map((c) => `${Math.round(c.w)} px: ${c.t}`).join(' | '),
    };
  });
  check(
    width.content <= width.page,
    `the rows are ${width.content} px wide on a page of ${width.page} px; the widest cells: ${width.widest}`,
  );
}

/** The workbench reloaded as a person does it; the sign-in and the review survive. */
async function reload(page: Page): Promise<void> {
  await palette(page, 'Developer: Reload Window');
  await page.locator('.monaco-workbench').waitFor({ state: 'detached', timeout: UI_TIMEOUT_MS });
  await waitForWorkbench(page);
  // The extension is back and signed in again (from its stored session) once its status bar item names the user.
  await page
    .locator('.part.statusbar .statusbar-item', { hasText: `demo @ ${PORTAL_LABEL}` })
    .first()
    .waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
}

/** Parses the evidence CSV (UTF-8 with a byte order mark, CRLF lines, quoted cells where needed; no cell spans lines). */
function csvRows(text: string): string[][] {
  return text
    .replace(/^\uFEFF/, '')
    .split('\r\n')
    .filter((l) => l !== '')
    .map((line) => {
      const cells: string[] = [];
      let cell = '';
      let quoted = false;
      for (let i = 0; i < line.length; i++) {
        const c = line[i];
        if (quoted && c === '"' && line[i + 1] === '"') {
          cell += '"';
          i++;
        } else if (c === '"') quoted = !quoted;
        else if (c === ',' && !quoted) {
          cells.push(cell);
          cell = '';
        } else cell += c;
      }
      cells.push(cell);
      return cells;
    });
}

interface Evidence {
  folder: string;
  id: string;
  csv: string;
  summary: string;
  manifest: string;
}

/** The finished review's evidence files, once written (the extension's storage, reviews/<portal>/). */
async function evidence(page: Page, storage: string): Promise<Evidence> {
  const root = path.join(storage, 'reviews');
  return until(
    page,
    () => {
      if (!fs.existsSync(root)) return undefined;
      for (const portal of fs.readdirSync(root)) {
        const folder = path.join(root, portal);
        const manifest = fs.readdirSync(folder).find((n) => n.endsWith('-manifest.json'));
        if (manifest)
          return { folder, id: manifest.replace(/-manifest\.json$/, ''), ...readEvidence(folder, manifest) };
      }
      return undefined;
    },
    'the evidence files are written',
  );
}

function readEvidence(folder: string, manifest: string): Omit<Evidence, 'folder' | 'id'> {
  const id = manifest.replace(/-manifest\.json$/, '');
  const read = (name: string) => fs.readFileSync(path.join(folder, name), 'utf8');
  return { csv: read(`${id}-evidence.csv`), summary: read(`${id}-summary.md`), manifest: read(manifest) };
}

/** Every row with its decision and reason; the summary's counts; the manifest's digests, and the review's digest of it. */
function checkEvidence(e: Evidence, rows: number, noExpiry: readonly string[]): void {
  const [header, ...lines] = csvRows(e.csv);
  check(
    header?.join(',') ===
      'Kind,Identity,Name,Access as read,Details as read,Read at,Decision,Reason,Decided by,Decided at,Carried out',
    `the evidence's header: ${header?.join(',')}`,
  );
  check(lines.length === rows, `the evidence has ${lines.length} rows, the review ${rows}`);
  const byIdentity = new Map(lines.map((l) => [l[1] ?? '', l]));
  for (const email of noExpiry) {
    const l = byIdentity.get(email);
    check(
      l?.[0] === 'Guest' && l[6] === 'Expire share' && l[7] === GUEST_REASON && l[8] === 'demo',
      `${email}: ${l?.join(',')}`,
    );
    check(l[10] === 'to be carried out on the portal', `${email} is said to be carried out: ${l[10]}`);
  }
  for (const username of LEAVERS) {
    const l = byIdentity.get(username);
    check(
      l?.[0] === 'Member' && l[6] === 'Remove from the organisation' && l[7] === LEAVER_REASON && l[8] === 'demo',
      `${username}: ${l?.join(',')}`,
    );
  }
  const undecided = lines.filter((l) => l[6] === 'undecided');
  check(undecided.length === rows - noExpiry.length - LEAVERS.length, `${undecided.length} rows undecided`);
  check(
    lines.every((l) => /^\d{4}-\d\d-\d\dT/.test(l[5] ?? '')),
    'a row has no time it was read',
  );
  check(/\*\*Reviewer:\*\* demo/.test(e.summary), `the summary names no reviewer:\n${e.summary}`);
  check(
    /guest shares to expire.*to be carried out on the portal/.test(e.summary),
    `the summary does not say the guests' decisions are for the portal:\n${e.summary}`,
  );
  const manifest = JSON.parse(e.manifest) as { files: Array<{ name: string; sha256: string }> };
  for (const f of manifest.files)
    check(
      sha256(fs.readFileSync(path.join(e.folder, f.name))) === f.sha256,
      `${f.name} does not match its digest in the manifest`,
    );
  check(manifest.files.length === 2, `the manifest lists ${manifest.files.length} files`);
  // The review's own file (its head, flat) keeps the manifest's digest: an edit of the manifest shows.
  const review = JSON.parse(fs.readFileSync(path.join(e.folder, `${e.id}.json`), 'utf8')) as {
    evidenceDigest?: string;
  };
  const digest = review.evidenceDigest;
  check(
    digest === sha256(e.manifest),
    `the review keeps the digest ${digest}, the manifest's is ${sha256(e.manifest)}`,
  );
}

export async function run(ctx: FlowContext): Promise<void> {
  await demoFlow(ctx, 'review', { settings: () => ({ 'portal.pageSize': 100 }) }, async ({ emu, wb }) => {
    const page = wb.page;
    const acme = await Acme.signIn(emu);
    const cutoff = Date.now() - 180 * DAY;
    const members = await acme.members();
    for (const u of LEAVERS) {
      const m = members.find((x) => x.user.username === u);
      check(m && m.user.lastActive !== null && m.user.lastActive < cutoff, `${u} is not inactive for 180 days`);
    }
    const shares = await acme.shares();
    const noExpiry = shares.filter((s) => s.dateExpire === null).map((s) => s.email);
    const pending = (await acme.invitations()).filter((i) => i.request.status === 'NONE').length;
    check(noExpiry.length > 0 && pending > 0, `${noExpiry.length} shares with no expiry, ${pending} invitations`);
    const rows = members.length + shares.length + pending;

    await signInToAcme(page, PORTAL_LABEL, { width: 360, height: 900 });
    ctx.log('signed in');

    // 1. Access Review… on Acme: never read, so the read is offered first; then the page, every row undecided.
    await palette(page, 'Portal: Access Review…');
    await pick(page, 'Acme Corporation');
    await (await dialogButton(page, /The access of Acme Corporation has not been read yet/, /^Read$/)).click();
    let frame = await reviewPage(page, rows);
    await counts(frame, `0 of ${rows} decided`);
    ctx.log(
      `the review shows ${rows} rows: ${members.length} members, ${shares.length} guest shares, ${pending} invitations`,
    );
    await decide(frame, rows, noExpiry, ctx);

    // 2. The window reloads; Access Review… resumes the same review with its four decisions.
    await reload(page);
    frame = await openReview(page, rows);
    await counts(frame, `${noExpiry.length + LEAVERS.length} of ${rows} decided`);
    for (const u of LEAVERS)
      await reviewRow(frame, u)
        .locator('td.decision', { hasText: 'Remove from the organisation' })
        .waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
    ctx.log('reloaded: Access Review… resumed the review with its decisions');
    await pageFits(frame);
    await palette(page, 'Notifications: Clear All Notifications');
    await new Screens(wb, ctx.imagesDir, ctx.log).inThemes('review', frame, ['dark', 'light']);

    // 3. Finish Review: the evidence is written, and the plan holds the two removals and nothing else.
    await frame.locator('#finish').click();
    await (await dialogButton(page, 'Finish the access review of Acme Corporation?', 'Finish Review')).click();
    await notified(page, /The access review of Acme Corporation is finished/);
    const pane = planPane(page);
    await pane.getByText('2 of 2 changes chosen').waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
    for (const u of LEAVERS)
      await pane
        .locator('.monaco-list-row', { hasText: u })
        .first()
        .waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
    ctx.log(`finished: the plan shows the removal of ${LEAVERS.join(' and ')}`);

    // 4. Apply: exactly the two removals reach the portal.
    emu.resetStats();
    await titleAction(page, /^Plan/, 'Apply Plan…');
    await (await dialogButton(page, 'Apply changes to 2 members of Acme Corporation?', 'Apply to 2 Members')).click();
    await notified(page, /Applied to Acme Corporation\. Done: 2\./);
    const writes = Object.entries(emu.stats().byRoute).filter(([route]) => !route.startsWith('GET '));
    check(
      writes.length === 1 &&
        writes[0]?.[0] === 'DELETE /v3/accounts/:account/members/:username' &&
        writes[0][1] === LEAVERS.length,
      `the apply sent: ${JSON.stringify(writes)}`,
    );
    const after = (await acme.members()).map((m) => m.user.username);
    check(
      LEAVERS.every((u) => !after.includes(u)) && after.length === members.length - LEAVERS.length,
      `members after the apply: ${after.join(', ')}`,
    );
    check((await acme.shares()).length === shares.length, 'a guest share changed: nothing may be sent for guests');
    ctx.log('applied: the portal got exactly the two removals; guests and invitations untouched');

    // 5. The evidence, once it says what was applied: every row, decision and reason; the digest matches.
    const storage = extensionStorage(wb);
    const first = await evidence(page, storage);
    const applied = await until(
      page,
      () => {
        const e = { ...first, ...readEvidence(first.folder, `${first.id}-manifest.json`) };
        return /Applied .*: 2 done/.test(e.summary) ? e : undefined;
      },
      'the evidence says what was applied',
    );
    checkEvidence(applied, rows, noExpiry);
    for (const name of [`${applied.id}-evidence.csv`, `${applied.id}-summary.md`, `${applied.id}-manifest.json`]) {
      const mode = fs.statSync(path.join(applied.folder, name)).mode & 0o777;
      check(mode === 0o600, `${name} is ${mode.toString(8)}, not 600`);
    }
    ctx.log(`the evidence: ${rows} rows with decisions and reasons, the summary, the manifest; its digest matches`);
  });
}
