/** File record commands: open the record, open its content, download it. */
import * as vscode from 'vscode';
import type { PortalRegistry } from '../auth/portalRegistry';
import { downloadWithProgress } from '../records/download';
import { MAX_EDITOR_BYTES, uriOf, type PortalFileSystem } from '../records/provider';
import { isTextContentType } from '../shared/format';
import { prompts } from './prompts';
import { guarded } from './run';
import { pickFile, type FileRef } from './targets';
import * as notify from '../shared/notify';

export function recordUri(f: FileRef): vscode.Uri {
  return uriOf({ kind: 'record', portalId: f.portalId, accountId: f.accountId, groupId: f.groupId, fileId: f.fileId, name: f.name });
}

export function contentUri(f: FileRef): vscode.Uri {
  return uriOf({ kind: 'content', portalId: f.portalId, accountId: f.accountId, groupId: f.groupId, fileId: f.fileId, name: f.name });
}

export function registerFileCommands(registry: PortalRegistry, fileSystem: PortalFileSystem, log: vscode.LogOutputChannel): vscode.Disposable[] {
  return [
    guarded(log, 'portal.file.openRecord', async (arg?: unknown) => {
      const f = await pickFile(registry, arg, false);
      if (!f) return;
      const uri = recordUri(f);
      fileSystem.forget(uri); // a click means "show me now", not what was fetched a moment ago
      await vscode.window.showTextDocument(uri, { preview: true });
    }),
    guarded(log, 'portal.file.openContent', async (arg?: unknown) => {
      const f = await pickFile(registry, arg, true);
      if (!f) return;
      if (f.isFolder) {
        void notify.info(`${f.name} is a folder; open one of its files.`);
        return;
      }
      if (f.size !== undefined && f.size > MAX_EDITOR_BYTES) {
        const choice = await notify.warn(`${f.name} is too large to open in an editor.`, 'Download…');
        if (choice) await vscode.commands.executeCommand('portal.file.download', arg ?? f);
        return;
      }
      const uri = contentUri(f);
      fileSystem.forget(uri);
      const contentType = (arg as { row?: { contentType?: unknown } } | undefined)?.row?.contentType;
      if (isTextContentType(typeof contentType === 'string' ? contentType : '', f.name)) {
        await vscode.window.showTextDocument(uri, { preview: true });
      } else {
        // Images and other binary types: VS Code picks its editor (image preview, hex, "open anyway").
        await vscode.commands.executeCommand('vscode.open', uri);
      }
    }),
    guarded(log, 'portal.file.download', async (arg?: unknown, folder?: unknown) => {
      const f = await pickFile(registry, arg, true);
      if (!f) return undefined;
      if (f.isFolder) {
        void notify.info(`${f.name} is a folder; download its files one by one.`);
        return undefined;
      }
      // A folder named by the caller (another extension, a link) is used only when the user agrees to it.
      const target = folder instanceof vscode.Uri ? folder : undefined;
      if (target && !(await prompts().confirm(`Download ${f.name} to ${target.fsPath}?`, 'Another extension or a link chose this folder. Nothing is written unless you confirm.', 'Download'))) {
        return undefined;
      }
      return downloadWithProgress(registry.client(f.portalId), f, target);
    }),
    guarded(log, 'portal.file.copyId', async (arg?: unknown) => {
      const f = await pickFile(registry, arg, false);
      if (f) await vscode.env.clipboard.writeText(String(f.fileId));
    }),
  ];
}
