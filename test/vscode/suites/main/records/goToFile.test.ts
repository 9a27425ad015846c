// Go to File Record as a person uses it from the Explorer: it searches the organisation of the selected row without
// asking (a selected group's matches first), each row says the folders it lies in, Enter opens the content (the
// row's button the record), and the chosen row is revealed and selected in the Explorer, its folders expanded.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Emulator } from '../../../../emulator';
import { startDemoPortal, stopDemoPortal } from '../../../support/demoPortal';
import { features, walk, type Provider } from '../../../support/tree';
import { visible, withUi } from '../../../support/ui';
import { waitFor } from '../../../../support/wait';
import { recordFact, recordPageState } from '../../../support/recordPage';

const ACME = 1;
const SOCIAL_CLUB = 104;
/** A reveal reads the lists on the way (one request each): bounded, generous for a loaded machine. */
const REVEAL_MS = 15_000;

interface FileRefData {
  kind: 'file';
  fileId: number;
  name: string;
  group: { groupId: number };
}

describe('Go to File Record from the Explorer', function () {
  this.timeout(180_000);
  let emu: Emulator;
  let portalId: string;
  let token: string;
  let explorer: Provider;
  let view: vscode.TreeView<unknown>;

  /** Selects a row of the Explorer as a click does, and waits until the view says it is selected. */
  const select = async (labels: string[]): Promise<void> => {
    const row = await walk(explorer, portalId, labels);
    await view.reveal(row.node, { select: true, focus: true });
    await waitFor(() => view.selection[0] === row.node, `${labels.join(' › ')} is selected`);
  };
  const selectedRef = () => (view.selection[0] as { ref?: Partial<FileRefData> } | undefined)?.ref;
  /** Runs the command as a key or the palette does (no row), or on a row as its context menu does. */
  const goTo = (row?: unknown) => vscode.commands.executeCommand<FileRefData | undefined>('portal.goToFileRecord', row);
  const acmeRow = async () => (await walk(explorer, portalId, ['Acme Corporation'])).node;

  before(async () => {
    ({ emu, portalId, token } = await startDemoPortal());
    const testing = await features();
    explorer = testing.explorer.provider as unknown as Provider;
    view = testing.explorer.view as unknown as vscode.TreeView<unknown>;
  });

  afterEach(async () => {
    emu.clearFaults();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  after(async () => {
    await stopDemoPortal({ emu, portalId });
  });

  it('searches the organisation of the selected row without asking which portal or organisation', async () => {
    await select(['Acme Corporation']);
    const file = await withUi({ 'goto.file': { search: 'csv', pick: 'events.csv' } }, async (ui) => {
      const chosen = await goTo();
      assert.deepEqual(ui.questions, ['goto.file'], 'asked nothing but the search');
      assert.match(visible(ui.asked[0]?.texts[0] ?? ''), /Acme Corporation/);
      return chosen;
    });
    assert.equal(file?.name, 'events.csv');
  });

  it("puts a selected group's matches first, even when that group answers last", async () => {
    await select(['Acme Corporation', 'Social Club']);
    // Social Club answers after the other groups: without the selection it would come last.
    emu.setFaults([{ kind: 'latency', delayMs: 400, path: `/v2/accounts/${ACME}/groups/${SOCIAL_CLUB}/files` }]);
    await withUi({ 'goto.file': { search: 'csv', pick: 'events.csv' } }, async (ui) => {
      await goTo();
      const q = ui.asked.find((a) => a.id === 'goto.file');
      assert.deepEqual(ui.questions, ['goto.file']);
      assert.match(visible(q?.texts[0] ?? ''), /Social Club first/);
      assert.equal(q?.items?.[0], 'events.csv', `Social Club's match leads: ${q?.items?.join(', ')}`);
      assert.ok((q?.items?.length ?? 0) > 1, 'the other groups are searched too');
    });
  });

  it('says the folders each hit lies in, as the portal names them', async () => {
    await withUi({ 'goto.file': { search: 'format', pick: 'format.ts' } }, async (ui) => {
      await goTo(await acmeRow());
      const texts = (ui.asked.find((a) => a.id === 'goto.file')?.texts ?? []).map(visible);
      assert.ok(
        texts.some((t) => t.startsWith('Engineering / src / utils · ')),
        `format.ts is in Engineering / src / utils: ${texts.join(' | ')}`,
      );
    });
    await withUi({ 'goto.file': { search: 'events', pick: 'events.csv' } }, async (ui) => {
      await goTo(await acmeRow());
      const texts = (ui.asked.find((a) => a.id === 'goto.file')?.texts ?? []).map(visible);
      assert.ok(
        texts.some((t) => t.startsWith('Social Club · ')),
        `a record at a group's root names the group alone: ${texts.join(' | ')}`,
      );
    });
  });

  it('opens the content on Enter, and the record from the row\'s "Open File Record" button', async () => {
    await withUi({ 'goto.file': { search: 'events', pick: 'events.csv' } }, async () => goTo(await acmeRow()));
    const content = vscode.window.activeTextEditor?.document;
    const res = await fetch(`${emu.url}/v3/groups/${SOCIAL_CLUB}/files/${await eventsId()}/download`, {
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(res.status, 200);
    assert.equal(content?.uri.scheme, 'portal');
    assert.equal(content?.getText(), await res.text(), "the editor shows the file's content");

    const button = { search: 'events', pick: 'events.csv', button: 'Open File Record' };
    await withUi({ 'goto.file': button }, async () => goTo(await acmeRow()));
    const record = await recordPageState('events.csv');
    assert.equal(recordFact(record, 'Path'), 'Social Club / events.csv', 'the button opens the record');
  });

  it('reveals and selects the chosen row in the Explorer, expanding its group and folders', async () => {
    // Nothing below the organisation is loaded: the reveal has to read the group and each folder.
    (await features()).explorer.refresh();
    const file = await withUi({ 'goto.file': { search: 'format', pick: 'format.ts' } }, async () =>
      goTo(await acmeRow()),
    );
    assert.ok(file);
    await waitFor(() => selectedRef()?.fileId === file.fileId, 'format.ts is selected in the Explorer', REVEAL_MS);
    assert.equal(selectedRef()?.name, 'format.ts');
    const folder = await withUi({ 'goto.file': { search: 'docs', pick: 'docs' } }, async () => goTo(await acmeRow()));
    assert.ok(folder);
    await waitFor(() => selectedRef()?.fileId === folder.fileId, 'the docs folder is selected', REVEAL_MS);
  });

  /** events.csv's id, from the portal. */
  async function eventsId(): Promise<number> {
    const res = await fetch(`${emu.url}/v2/accounts/${ACME}/groups/${SOCIAL_CLUB}/files?size=100`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const body = (await res.json()) as { page: Array<{ id: number; name: string }> };
    const found = body.page.find((f) => f.name === 'events.csv');
    assert.ok(found);
    return found.id;
  }
});
