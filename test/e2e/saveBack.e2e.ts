// Save-back over a same-size change made on the portal, through the real workbench: a text file record's content
// opened from the Explorer; the user edits; another administrator's edit of the same number of bytes lands on the
// portal; the user saves with Ctrl+S. VS Code's own conflict choice appears (nothing is sent), *Compare* shows the
// portal's copy beside the user's, the portal keeps the other change until *Overwrite*, and then holds the user's.
import { passwordToken } from '../vscode/support/portalHttp';
import { expand, treeRow, UI_TIMEOUT_MS, demoFlow } from './fixture';
import type { FlowContext } from './run';
import { check, contextMenu, portalSidebar, signInFromExplorer, SAVE_ONLY_WHEN_ASKED, typeAtEnd, until } from './ui';

const PORTAL_LABEL = 'Demo portal';
const ACME = 1;
const MARKETING = 102;

export async function run(ctx: FlowContext): Promise<void> {
  await demoFlow(ctx, 'saveBack', { settings: SAVE_ONLY_WHEN_ASKED }, async ({ page, emu }) => {
    const token = await passwordToken(emu.url, 'demo', 'demo');
    const headers = { authorization: `Bearer ${token}` };
    const listed = await fetch(`${emu.url}/v2/accounts/${ACME}/groups/${MARKETING}/files`, { headers });
    const id = ((await listed.json()) as { page: Array<{ id: number; name: string }> }).page.find(
      (f) => f.name === 'notes.txt',
    )?.id;
    check(id, 'notes.txt is on the portal');
    const read = async (): Promise<string> =>
      (await fetch(`${emu.url}/v3/groups/${MARKETING}/files/${id}/download`, { headers })).text();
    const original = await read();
    check(original.startsWith('Marketing notes'), 'notes.txt starts with its title');

    await portalSidebar(page, { width: 480 });
    await signInFromExplorer(page, PORTAL_LABEL);
    await expand(page, 'Explorer', 'Acme Corporation', 'Marketing');
    await expand(page, 'Explorer', 'Marketing', 'notes.txt');
    await contextMenu(page, treeRow(page, 'Explorer', 'notes.txt'), 'Open Content');
    const editor = page.locator('.editor-instance .monaco-editor').first();
    await editor.locator('.view-lines', { hasText: 'Marketing' }).waitFor({ timeout: UI_TIMEOUT_MS });
    ctx.log('notes.txt content open');

    // Another administrator's edit while this one's is unsaved: the same number of bytes, so only its version tells
    // it apart.
    await typeAtEnd(page, 'mine');
    const theirs = original.replace('Marketing notes', 'SECOND-EDIT-now');
    check(Buffer.byteLength(theirs) === Buffer.byteLength(original) && theirs !== original, 'a same-size change');
    emu.editFile({ id, text: theirs });
    await page.keyboard.press('Control+S');
    const conflict = page.locator('.notification-toast', { hasText: 'The content of the file is newer' }).first();
    await conflict.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
    check((await read()) === theirs, 'the save sent nothing: the portal keeps the other change');
    ctx.log("changed on the portal (same size), edited, saved: VS Code's own conflict choice, nothing sent");

    await conflict.locator('.monaco-button', { hasText: 'Compare' }).click();
    const diff = page.locator('.tabs-container .tab', { hasText: /notes\.txt.*↔/ }).first();
    await diff.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
    // Side by side or inline (as the editor's width decides), the compare editor holds both copies.
    await page
      .locator('.monaco-diff-editor')
      .filter({ hasText: 'SECOND-EDIT-now' })
      .filter({ hasText: 'Marketing' })
      .filter({ hasText: 'mine' })
      .first()
      .waitFor({ timeout: UI_TIMEOUT_MS });
    check((await read()) === theirs, 'Compare sent nothing');
    ctx.log('Compare shows both copies; the portal still holds the other change');

    // The compare editor's own action: "Use your changes and overwrite file contents".
    await page.locator('.editor-actions .action-label[aria-label*="overwrite" i]').first().click();
    const after = await until(
      page,
      async () => {
        const text = await read();
        return text !== theirs ? text : undefined;
      },
      'the Overwrite sent',
    );
    check(after === `${original}mine`, `Overwrite sent the editor's text (the portal holds ${JSON.stringify(after)})`);
    ctx.log("Overwrite: the portal holds the user's text");
  });
}
