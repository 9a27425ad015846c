// File records through the real workbench, in one launch: a file and a folder with its subfolder downloaded from
// the Explorer's context menu into a folder typed into the workbench's own folder dialog (checked byte for byte on
// disk), the folder again with "Skip Existing Files" answered in the modal, and Go to File Record by its key
// (Ctrl+Alt+F) with Engineering selected: its organisation searched without a question, matches from three groups
// (each with its folders) while a fourth has not answered yet, one picked: its content open, its row revealed.
// Screenshot: goto-file-record.png in the run's images folder (docs/images/ with --update-docs; the README shows it).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { type Emulator } from '../emulator';
import { expand, quickInput, treeRow, UI_TIMEOUT_MS, type E2EWorkbench, demoFlow, DemoReader } from './fixture';
import type { FlowContext } from './run';
import { check, chooseFolder as chooseFolderIn, contextMenu, notified, portalSidebar, signInFromExplorer } from './ui';

const PORTAL_LABEL = 'Demo portal';
const ACME = 1;
const ENGINEERING = 101;
const SOCIAL = 104;

interface Listed {
  id: number;
  name: string;
  contentType: string;
}

/** Reads the portal as the demo user, not through the extension. */
class Portal extends DemoReader {
  /** A folder's records (0: the group's root), by name. */
  async list(groupId: number, folderId: number): Promise<Map<string, Listed>> {
    const at =
      folderId === 0
        ? `/v2/accounts/${ACME}/groups/${groupId}/files`
        : `/v2/accounts/${ACME}/groups/${groupId}/files/${folderId}/children`;
    const res = await this.get<{ page: Listed[] }>(at);
    check(res.status === 200, `GET ${at}: ${res.status}`);
    return new Map(res.body.page.map((f) => [f.name, f]));
  }

  async bytes(groupId: number, fileId: number): Promise<Buffer> {
    const res = await this.fetch(`/v3/groups/${groupId}/files/${fileId}/download`);
    check(res.status === 200, `download ${fileId}: ${res.status}`);
    return Buffer.from(await res.arrayBuffer());
  }
}

function record(list: Map<string, Listed>, name: string): Listed {
  const r = list.get(name);
  check(r, `no record ${name} on the portal: ${[...list.keys()].join(', ')}`);
  return r;
}

/** The local file holds exactly the portal's bytes. */
async function sameBytes(portal: Portal, local: string, groupId: number, fileId: number): Promise<void> {
  check(fs.existsSync(local), `${local} was not written`);
  check(
    fs.readFileSync(local).equals(await portal.bytes(groupId, fileId)),
    `${local} does not hold the portal's bytes`,
  );
}

/** A folder inside the download folder, so the folder dialog shows when it lists the download folder. */
const MARKER = 'downloads-go-here';

/** The workbench's folder dialog, answered with `dir` (which holds the marker folder). */
const chooseFolder = (page: Page, title: string, dir: string, okLabel: string): Promise<void> =>
  chooseFolderIn(page, title, dir, okLabel, MARKER);

async function downloads(page: Page, portal: Portal, out: string, ctx: FlowContext): Promise<void> {
  const root = await portal.list(ENGINEERING, 0);
  await contextMenu(page, treeRow(page, 'Explorer', 'README.md'), 'Download…');
  await chooseFolder(page, 'Download README.md', out, 'Download here');
  await notified(page, 'Downloaded README.md to');
  await sameBytes(portal, path.join(out, 'README.md'), ENGINEERING, record(root, 'README.md').id);
  ctx.log('downloaded README.md from its context menu, byte for byte');

  const docs = record(root, 'docs');
  const inDocs = await portal.list(ENGINEERING, docs.id);
  const overview = record(await portal.list(ENGINEERING, record(inDocs, 'diagrams').id), 'overview.png');
  await contextMenu(page, treeRow(page, 'Explorer', 'docs'), 'Download Folder…');
  await chooseFolder(page, 'Download docs with its subfolders', out, 'Download here');
  await notified(page, /Downloaded docs to .*\. 2 files written/);
  await sameBytes(portal, path.join(out, 'docs', 'architecture.md'), ENGINEERING, record(inDocs, 'architecture.md').id);
  await sameBytes(portal, path.join(out, 'docs', 'diagrams', 'overview.png'), ENGINEERING, overview.id);
  ctx.log('downloaded the folder docs with its subfolder diagrams, byte for byte');

  // Again into the same folder, with one file changed here: asked once, and "Skip" keeps it.
  const mine = path.join(out, 'docs', 'architecture.md');
  fs.writeFileSync(mine, 'my notes');
  await contextMenu(page, treeRow(page, 'Explorer', 'docs'), 'Download Folder…');
  await chooseFolder(page, 'Download docs with its subfolders', out, 'Download here');
  const modal = page.locator('.monaco-dialog-box', { hasText: '2 of the 2 files are already in' });
  await modal.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  await modal.locator('.monaco-button', { hasText: 'Skip Existing Files' }).click();
  await notified(page, /Downloaded docs to .*0 files written .* 2 already there were kept\./);
  check(fs.readFileSync(mine, 'utf8') === 'my notes', 'the file already there was replaced');
  ctx.log('downloaded docs again: one question, "Skip Existing Files" kept the local files');
}

async function goToFileRecord(wb: E2EWorkbench, emu: Emulator, ctx: FlowContext): Promise<void> {
  const page = wb.page;
  // Social Club's search never answers: the rows from the groups that did must show while it is still out.
  emu.setFaults([{ kind: 'drip', delayMs: 1000, path: `/v2/accounts/${ACME}/groups/${SOCIAL}/files` }]);
  await treeRow(page, 'Explorer', 'Engineering').click();
  // The selected row names the organisation: no question before the search.
  await page.keyboard.press('Control+Alt+f');
  const q = await quickInput(page);
  await q.input.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  await page
    .locator('.quick-input-widget input[placeholder^="Type part of a file name"]')
    .waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  await q.input.pressSequentially('.md', { delay: 60 });
  const row = (name: string, where: string) =>
    q.rows
      .filter({ hasText: name })
      .filter({ hasText: `${where} · ` })
      .first();
  for (const [name, where] of [
    ['README.md', 'Engineering'],
    ['welcome.md', 'Employee Handbook'],
    ['q1-plan.md', 'Marketing / campaigns / 2025'],
  ] as const) {
    await row(name, where).waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  }
  // The pick's progress bar runs while a group is still out (VS Code shows it once the pick has been busy a moment).
  await q.widget.locator('.quick-input-progress.infinite').waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  check((await q.rows.filter({ hasText: 'Social Club' }).count()) === 0, 'Social Club answered, though it never does');
  const file = path.join(ctx.imagesDir, 'goto-file-record.png');
  await wb.screenshot(file);
  ctx.log(
    `Go to File Record (Ctrl+Alt+F): matches from three groups while Social Club is still out; screenshot ${path.relative(process.cwd(), file)}`,
  );

  await row('q1-plan.md', 'Marketing / campaigns / 2025').click();
  await q.widget.waitFor({ state: 'hidden', timeout: UI_TIMEOUT_MS });
  emu.clearFaults();
  await page
    .locator('.tabs-container .tab', { has: page.locator('.label-name', { hasText: /^q1-plan\.md$/ }) })
    .first()
    .waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  ctx.log('picked q1-plan.md: its content is open');
  // Its row is revealed in the Explorer, Marketing and its folders expanded on the way.
  await page
    .locator('.monaco-list-row.selected', { has: page.locator('.label-name', { hasText: /^q1-plan\.md$/ }) })
    .first()
    .waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  ctx.log('q1-plan.md is revealed and selected in the Explorer');
}

export async function run(ctx: FlowContext): Promise<void> {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-e2e-files-'));
  fs.mkdirSync(path.join(out, MARKER));
  try {
    await demoFlow(ctx, 'files', {}, async ({ wb, page, emu }) => {
      const portal = new Portal(emu.url);
      await portalSidebar(page, { width: 480 });
      await signInFromExplorer(page, PORTAL_LABEL);
      await expand(page, 'Explorer', 'Acme Corporation', 'Engineering');
      await expand(page, 'Explorer', 'Engineering', 'README.md');
      ctx.log('signed in; Engineering expanded');

      await downloads(page, portal, out, ctx);
      await goToFileRecord(wb, emu, ctx);
    });
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
}
