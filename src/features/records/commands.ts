/** File record commands: open the record, open its content, download it, copy its id. */
import * as vscode from 'vscode';
import type { PortalRegistry } from '../../auth/portalRegistry';
import type { FileRef } from '../../shared/refs';
import { fileFor } from '../../targets/resolve';
import { registerCommand, type CommandEnv } from '../../ui/commands';
import type { Ui } from '../../ui/ui';
import type { RecordsHandle } from '../contracts';
import { MAX_EDITOR_BYTES } from './documents';
import { download } from './download';

/** Streams the file to a folder the user picks; the path written, or undefined when there was nothing to do. */
export async function downloadFile(ui: Ui, registry: PortalRegistry, f: FileRef): Promise<string | undefined> {
  if (f.isFolder) {
    ui.notify('info', vscode.l10n.t('{0} is a folder; download its files one by one.', f.name));
    return undefined;
  }
  return download(ui, registry.client(f.group.account.portalId), { groupId: f.group.groupId, fileId: f.fileId, name: f.name, size: f.size });
}

async function openContent(ui: Ui, registry: PortalRegistry, records: RecordsHandle, f: FileRef): Promise<string | undefined> {
  if (f.isFolder) {
    ui.notify('info', vscode.l10n.t('{0} is a folder; open one of its files.', f.name));
    return undefined;
  }
  if (f.size !== null && f.size > MAX_EDITOR_BYTES) {
    const choice = await ui.choose({
      id: 'file.tooLarge', severity: 'warning', modal: false, message: vscode.l10n.t('{0} is too large to open in an editor.', f.name),
      actions: [{ id: 'download', label: vscode.l10n.t('Download…') }],
    });
    return choice ? downloadFile(ui, registry, f) : undefined;
  }
  await records.open({ kind: 'content', file: f });
  return undefined;
}

export function registerFileCommands(env: CommandEnv, registry: PortalRegistry, records: RecordsHandle, toUri: (path: string) => vscode.Uri): vscode.Disposable[] {
  return [
    registerCommand(env, 'portal.file.openRecord', async (run) => records.open({ kind: 'record', file: await fileFor(run, registry, false) })),
    registerCommand(env, 'portal.file.openContent', async (run) => openContent(run.ui, registry, records, await fileFor(run, registry, true))),
    registerCommand(env, 'portal.file.download', async (run) => {
      const file = await downloadFile(run.ui, registry, await fileFor(run, registry, true));
      return file === undefined ? undefined : toUri(file);
    }),
    registerCommand(env, 'portal.file.copyId', async (run) => run.ui.copy(String((await fileFor(run, registry, false)).fileId))),
  ];
}
