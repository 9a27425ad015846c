/** File record commands: open the record, open its content, download it. */
import * as vscode from 'vscode';
import type { PortalRegistry } from '../../auth/portalRegistry';
import { download } from './download';
import { MAX_EDITOR_BYTES, uriOf, type PortalFileSystem } from './fileSystem';
import { isTextContentType } from '../../shared/format';
import type { Ui } from '../../ui/ui';
import { guarded, type CommandEnv } from '../../ui/commands';
import { pickFile, type FileRef } from '../../targets/pick';

export function recordUri(f: FileRef): vscode.Uri {
  return uriOf({ kind: 'record', portalId: f.portalId, accountId: f.accountId, groupId: f.groupId, fileId: f.fileId, name: f.name });
}

export function contentUri(f: FileRef): vscode.Uri {
  return uriOf({ kind: 'content', portalId: f.portalId, accountId: f.accountId, groupId: f.groupId, fileId: f.fileId, name: f.name });
}

async function downloadFile(ui: Ui, registry: PortalRegistry, f: FileRef): Promise<vscode.Uri | undefined> {
  if (f.isFolder) {
    ui.notify('info', `${f.name} is a folder; download its files one by one.`);
    return undefined;
  }
  const file = await download(ui, registry.client(f.portalId), f);
  return file === undefined ? undefined : vscode.Uri.file(file);
}

async function openContent(ui: Ui, registry: PortalRegistry, fileSystem: PortalFileSystem, f: FileRef, contentType: string): Promise<void> {
  if (f.isFolder) {
    ui.notify('info', `${f.name} is a folder; open one of its files.`);
    return;
  }
  if (f.size !== undefined && f.size > MAX_EDITOR_BYTES) {
    const choice = await ui.choose({
      id: 'file.tooLarge', severity: 'warning', modal: false, message: `${f.name} is too large to open in an editor.`,
      actions: [{ id: 'download', label: 'Download…' }],
    });
    if (choice) await downloadFile(ui, registry, f);
    return;
  }
  const uri = contentUri(f);
  fileSystem.forget(uri);
  if (isTextContentType(contentType, f.name)) {
    await vscode.window.showTextDocument(uri, { preview: true });
  } else {
    // Images and other binary types: VS Code picks its editor (image preview, hex, "open anyway").
    await vscode.commands.executeCommand('vscode.open', uri);
  }
}

export function registerFileCommands(registry: PortalRegistry, fileSystem: PortalFileSystem, env: CommandEnv): vscode.Disposable[] {
  return [
    guarded(env, 'portal.file.openRecord', async (arg?: unknown) => {
      const f = await pickFile(env.ui(), registry, arg, false);
      if (!f) return;
      const uri = recordUri(f);
      fileSystem.forget(uri); // a click means "show me now", not what was fetched a moment ago
      await vscode.window.showTextDocument(uri, { preview: true });
    }),
    guarded(env, 'portal.file.openContent', async (arg?: unknown) => {
      const ui = env.ui();
      const f = await pickFile(ui, registry, arg, true);
      if (!f) return;
      const contentType = (arg as { row?: { contentType?: unknown } } | undefined)?.row?.contentType;
      await openContent(ui, registry, fileSystem, f, typeof contentType === 'string' ? contentType : '');
    }),
    guarded(env, 'portal.file.download', async (arg?: unknown) => {
      const ui = env.ui();
      const f = await pickFile(ui, registry, arg, true);
      return f ? downloadFile(ui, registry, f) : undefined;
    }),
    guarded(env, 'portal.file.copyId', async (arg?: unknown) => {
      const ui = env.ui();
      const f = await pickFile(ui, registry, arg, false);
      if (f) await ui.copy(String(f.fileId));
    }),
  ];
}
