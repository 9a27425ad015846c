// Uploads and save-back through the real workbench, in one launch:
// - a folder of 20 files with two subfolders dropped from the OS on the Marketing row. In a browser the workbench
//   gives an extension a dropped folder's name only (it reads each dropped item's getAsFile(), never a folder's
//   entries, and the browser shows a page no path), so the drop names the folder back with Upload Folder… on its
//   notification: the workbench's folder dialog, the plan's clash answered "New Version", the plan's modal "Upload",
//   the toast, the Explorer showing the new folder, the portal holding every file's bytes and the clash a new version;
// - two files dropped from the OS on that folder's row: they arrive as names and bytes, and go through the same plan
//   (one clash as a new version), onto the portal;
// - a text file record's content opened, edited, saved (a new version on the portal); changed on the portal, edited
//   again, saved: VS Code's own conflict, whose Compare opens both sides and whose Overwrite sends.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { expand, quickInput, treeRow, UI_TIMEOUT_MS, demoFlow, DemoReader } from './fixture';
import type { FlowContext } from './run';
import {
  check,
  chooseFolder,
  contextMenu,
  dropFromOs,
  portalSidebar,
  signInFromExplorer,
  notified,
  SAVE_ONLY_WHEN_ASKED,
  typeAtEnd,
  until,
} from './ui';

const PORTAL_LABEL = 'Demo portal';
const ACME = 1;
const MARKETING = 102;

/** The portal as the demo user sees it, not through the extension. */
class Portal extends DemoReader {
  private async auth(): Promise<Record<string, string>> {
    return { authorization: `Bearer ${await this.bearer()}` };
  }

  async index(): Promise<Record<string, { ID: number }>> {
    const res = await fetch(`${this.url}/v2/accounts/${ACME}/groups/${MARKETING}/files/index`, {
      headers: await this.auth(),
    });
    const text = await res.text();
    return (JSON.parse(Buffer.from(text, 'base64').toString('utf8')) as { metadata: Record<string, { ID: number }> })
      .metadata;
  }

  async text(id: number): Promise<string> {
    const res = await fetch(`${this.url}/v3/groups/${MARKETING}/files/${id}/download`, {
      headers: await this.auth(),
    });
    return res.text();
  }

  async versions(id: number): Promise<number> {
    const r = await this.get<{ versions: number }>(`/v2/accounts/${ACME}/groups/${MARKETING}/files/${id}`);
    return r.body.versions;
  }

  /** Someone else saves a new version. */
  async replace(id: number, text: string): Promise<void> {
    const base = `${this.url}/v2/accounts/${ACME}/groups/${MARKETING}/files`;
    const headers = { ...(await this.auth()), 'x-file-id': `other-${Date.now()}` };
    const size = String(Buffer.byteLength(text));
    const data = await fetch(`${base}/upload/data`, {
      method: 'POST',
      headers: { ...headers, 'x-file-start': '0', 'x-file-end': size, 'x-file-size': size },
      body: text,
    });
    check(data.status === 200, `chunk: ${data.status}`);
    const done = await fetch(`${base}/upload/complete?success=True&path=x`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ id }),
    });
    check(done.status === 200, `complete: ${done.status}`);
  }
}

/** Writes `files` (paths below `root` → text) to disk. */
function writeTree(root: string, files: Record<string, string>): void {
  for (const [p, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, p)), { recursive: true });
    fs.writeFileSync(path.join(root, p), text);
  }
}

/** The portal holds each of `files` (paths below the group's root → text). */
async function holds(portal: Portal, files: Record<string, string>): Promise<void> {
  const index = await portal.index();
  for (const [p, text] of Object.entries(files)) {
    const id = index[`/${p}`]?.ID;
    check(id, `${p} is on the portal`);
    check((await portal.text(id)) === text, `${p} holds the dropped bytes`);
  }
}

/** The plan's one clash answered "New Version", then its modal (`title`, which must say `counts`) answered Upload. */
async function newVersionAndUpload(page: Page, title: string, counts: RegExp): Promise<void> {
  const q = await quickInput(page);
  await q.widget.locator('input[placeholder*="already there"]').waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  await q.rows.filter({ hasText: 'New Version' }).first().click();
  const modal = page.locator('.monaco-dialog-box', { hasText: title });
  await modal.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  const detail = (await modal.textContent()) ?? '';
  check(counts.test(detail), `the plan's counts: ${detail}`);
  check(/cannot be undone/.test(detail), `the plan says an upload cannot be undone: ${detail}`);
  await modal.locator('.monaco-button', { hasText: /^Upload$/ }).click();
}

/**
 * The folder dropped from the OS onto Marketing. In a browser the workbench hands an extension a dropped folder's
 * name but not its files, so the drop names it back with Upload Folder… one click away: then the folder dialog, the
 * plan's clash as a new version, Upload, the Explorer and the portal.
 */
async function dropFolder(page: Page, portal: Portal, local: string, ctx: FlowContext): Promise<void> {
  const files: Record<string, string> = { '2025/q1-plan.md': '# Q1 plan, revised\n', '2025/q2-plan.md': '# Q2\n' };
  for (let i = 0; i < 17; i++) files[`note-${i}.txt`] = `note ${i}\n`;
  files['drafts/idea.md'] = '# idea\n';
  writeTree(local, files);
  const q1 = (await portal.index())['/campaigns/2025/q1-plan.md']?.ID;
  check(q1, 'q1-plan.md is on the portal before the drop');
  const versions = await portal.versions(q1);
  await dropFromOs(page, treeRow(page, 'Explorer', 'Marketing'), [local]);
  const notice = page.locator('.notification-toast', { hasText: 'campaigns came without its files' }).first();
  await notice.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  ctx.log('the folder dropped from the OS on Marketing reached the extension, named without its files');
  await notice.locator('.monaco-button', { hasText: 'Upload Folder…' }).click();
  await chooseFolder(page, 'Upload to Marketing', local, 'Upload', 'drafts', false);
  await newVersionAndUpload(
    page,
    'Upload 20 files to Marketing?',
    /20 files into Marketing\/campaigns\/ \(3 folders\)/,
  );
  await notified(page, '20 of 20 files uploaded to Marketing.');
  ctx.log('Upload Folder… from the drop: 20 files planned, one clash as a new version, uploaded');
  await expand(page, 'Explorer', 'Marketing', 'campaigns');
  await expand(page, 'Explorer', 'campaigns', 'drafts');
  await expand(page, 'Explorer', 'drafts', 'idea.md');
  await holds(portal, Object.fromEntries(Object.entries(files).map(([p, t]) => [`campaigns/${p}`, t])));
  check((await portal.versions(q1)) === versions + 1, 'the clash got a new version');
  ctx.log('the Explorer shows the new folder; the portal holds every file and a new version of q1-plan.md');
}

/**
 * Files dropped from the OS onto the campaigns folder row: they reach the extension as names and bytes (a browser
 * gives a page no path), and go through the same plan: one clash as a new version, Upload, the portal's bytes.
 */
async function dropFiles(page: Page, portal: Portal, local: string, ctx: FlowContext): Promise<void> {
  const files: Record<string, string> = { 'brief.md': '# brief\n', 'note-0.txt': 'note 0, dropped again\n' };
  writeTree(local, files);
  const note0 = (await portal.index())['/campaigns/note-0.txt']?.ID;
  check(note0, 'note-0.txt is on the portal before the drop');
  const versions = await portal.versions(note0);
  await dropFromOs(
    page,
    treeRow(page, 'Explorer', 'campaigns'),
    Object.keys(files).map((p) => path.join(local, p)),
  );
  await newVersionAndUpload(page, 'Upload 2 files to campaigns?', /2 files into Marketing\/campaigns\//);
  await notified(page, '2 of 2 files uploaded to campaigns.');
  await expand(page, 'Explorer', 'campaigns', 'brief.md');
  await holds(portal, Object.fromEntries(Object.entries(files).map(([p, t]) => [`campaigns/${p}`, t])));
  check((await portal.versions(note0)) === versions + 1, 'the clash got a new version');
  ctx.log('two files dropped from the OS on campaigns: one clash as a new version, both on the portal');
}

async function saveBack(page: Page, portal: Portal, ctx: FlowContext): Promise<void> {
  const id = (await portal.index())['/notes.txt']?.ID;
  check(id, 'notes.txt is on the portal');
  const versions = await portal.versions(id);
  await contextMenu(page, treeRow(page, 'Explorer', 'notes.txt'), 'Open Content');
  const original = await portal.text(id);
  await typeAtEnd(page, 'mine');
  await page.keyboard.press('Control+S');
  await until(page, async () => ((await portal.versions(id)) !== versions ? true : undefined), 'a new version');
  check((await portal.text(id)) === `${original}mine`, 'the save sent the edited text');
  check((await portal.versions(id)) === versions + 1, 'as a new version');
  ctx.log('edited notes.txt and saved: a new version on the portal');

  await typeAtEnd(page, ' more');
  await portal.replace(id, 'theirs\n');
  await page.keyboard.press('Control+S');
  const conflict = page.locator('.notification-toast', { hasText: 'The content of the file is newer' }).first();
  await conflict.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  check((await portal.text(id)) === 'theirs\n', 'nothing was overwritten');
  await conflict.locator('.monaco-button', { hasText: 'Compare' }).click();
  const diff = page.locator('.tabs-container .tab', { hasText: /notes\.txt.*↔/ }).first();
  await diff.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  ctx.log("changed on the portal, edited, saved: VS Code's conflict; Compare shows both sides");
  // The compare editor's own action: "Use your changes and overwrite file contents".
  await page.locator('.editor-actions .action-label[aria-label*="overwrite" i]').first().click();
  const overwritten = await until(
    page,
    async () => {
      const text = await portal.text(id);
      return text !== 'theirs\n' ? text : undefined;
    },
    'the Overwrite sent',
  );
  check(overwritten === `${original}mine more`, 'Overwrite sent the editor text');
  ctx.log('Overwrite sent the editor text');
}

export async function run(ctx: FlowContext): Promise<void> {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-e2e-uploads-'));
  try {
    await demoFlow(ctx, 'uploads', { settings: SAVE_ONLY_WHEN_ASKED }, async ({ page, emu }) => {
      const portal = new Portal(emu.url);
      await portalSidebar(page, { width: 480 });
      await signInFromExplorer(page, PORTAL_LABEL);
      await expand(page, 'Explorer', 'Acme Corporation', 'Marketing');
      await dropFolder(page, portal, path.join(out, 'campaigns'), ctx);
      await dropFiles(page, portal, path.join(out, 'loose'), ctx);
      await expand(page, 'Explorer', 'Marketing', 'notes.txt');
      await saveBack(page, portal, ctx);
    });
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
}
