/**
 * File record commands: open the record, open its content, download it, copy its id; download a folder with its
 * subfolders; Go to File Record….
 */
import * as vscode from 'vscode';
import type { PortalRegistry } from '../../auth/portalRegistry';
import { groupOf, refPortalId, type FileRef, type Ref } from '../../shared/refs';
import { accountFor, fileFor } from '../../targets/resolve';
import { registerCommand, type CommandEnv, type Run } from '../../ui/commands';
import { answered, type Ui } from '../../ui/ui';
import type { RecordsHandle } from '../contracts';
import { MAX_EDITOR_BYTES } from './documents/contentBytes';
import { download } from './download/fileDownload';
import { downloadFolder, folderFor } from './download/folderDownloadCommand';
import { pickFileRecord, type GoToCaches } from './search/goToFile';

/** Streams the file to a folder the user picks; the path written, or undefined when there was nothing to do. */
async function downloadFile(ui: Ui, registry: PortalRegistry, f: FileRef): Promise<string | undefined> {
  if (f.isFolder) {
    ui.notify('info', vscode.l10n.t('{0} is a folder; download its files one by one.', f.name));
    return undefined;
  }
  return download(ui, registry.client(f.group.account.portalId), f);
}

async function openContent(
  ui: Ui,
  registry: PortalRegistry,
  records: RecordsHandle,
  f: FileRef,
): Promise<string | undefined> {
  if (f.isFolder) {
    ui.notify('info', vscode.l10n.t('{0} is a folder; open one of its files.', f.name));
    return undefined;
  }
  if (f.size !== null && f.size > MAX_EDITOR_BYTES) {
    const choice = await ui.choose({
      id: 'file.tooLarge',
      severity: 'warning',
      modal: false,
      message: vscode.l10n.t('{0} is too large to open in an editor.', f.name),
      actions: [{ id: 'download', label: vscode.l10n.t('Download…') }],
    });
    return choice ? downloadFile(ui, registry, f) : undefined;
  }
  await records.open({ kind: 'content', file: f });
  return undefined;
}

export function registerFileCommands(
  env: CommandEnv,
  registry: PortalRegistry,
  records: RecordsHandle,
  toUri: (path: string) => vscode.Uri,
): vscode.Disposable[] {
  return [
    registerCommand(env, 'portal.file.openRecord', async (run) =>
      records.open({ kind: 'record', file: await fileFor(run, registry, false) }),
    ),
    registerCommand(env, 'portal.file.openContent', async (run) =>
      openContent(run.ui, registry, records, await fileFor(run, registry, true)),
    ),
    registerCommand(env, 'portal.file.download', async (run) => {
      const file = await downloadFile(run.ui, registry, await fileFor(run, registry, true));
      return file === undefined ? undefined : toUri(file);
    }),
    registerCommand(env, 'portal.file.copyId', async (run) =>
      run.ui.copy(String((await fileFor(run, registry, false)).fileId)),
    ),
  ];
}

interface FinderDeps {
  readonly registry: PortalRegistry;
  readonly records: RecordsHandle;
  /** The group lists and folders searches keep. */
  readonly caches: GoToCaches;
  /** The row selected in the Explorer, which a command from the palette or a key searches in. */
  readonly selected: () => Ref | undefined;
  /** A record "Go to File Record…" chose. */
  readonly wentTo: (file: FileRef) => void;
}

export function registerFinderCommands(env: CommandEnv, deps: FinderDeps): vscode.Disposable[] {
  const { registry, records } = deps;
  const downloadTree = async (run: Run) => {
    const target = await folderFor(run, registry);
    return downloadFolder(run.ui, registry.client(target.group.account.portalId), env.log, target);
  };
  return [
    registerCommand(env, 'portal.goToFileRecord', async (run) => {
      // The row it ran on, else the Explorer's selection (of a signed-in portal): a person who selected an
      // organisation means it.
      const selected = deps.selected();
      const where = run.target ?? (selected && registry.get(refPortalId(selected))?.client ? selected : undefined);
      const account = await accountFor({ ...run, target: where }, registry);
      const { file, open } = answered(await pickFileRecord(run.ui, registry, deps.caches, account, groupOf(where)));
      // A folder has no content: its row is revealed below.
      if (open === 'record') await records.open({ kind: 'record', file });
      else if (!file.isFolder) await openContent(run.ui, registry, records, file);
      deps.wentTo(file);
      return file;
    }),
    registerCommand(env, 'portal.folder.download', downloadTree),
    registerCommand(env, 'portal.group.download', downloadTree),
  ];
}
