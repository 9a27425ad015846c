/** The `portal:` file system, the documents it serves, and the file record commands. */
import * as vscode from 'vscode';
import type { CommandEnv } from '../../ui/commands';
import type { AuthHandle } from '../../auth/register';
import type { FileFinder, GroupIds, PortalDocument, RecordsHandle } from '../contracts';
import { fileFinder } from './search/findFiles';
import { registerFileCommands, registerFinderCommands } from './commands';
import { GroupListCache } from './search/groupCache';
import { GroupFolders } from './search/groupFolders';
import { PortalFileSystem, uriOf } from './documents/fileSystem';
import { registerDocumentLoad } from './documents/loadCommand';
import { isTextContentType } from '../../shared/format';
import { PORTAL_SCHEME, type PortalTarget } from './documents/uri';
import type { Renderers } from './documents/documents';
import type { FileRef, Ref } from '../../shared/refs';
import { formKeys } from '../../shared/keys';
import type { FormHost } from '../../forms/formHost';
import { RecordPage } from './documents/page/recordPage';
import { registerUploads } from './upload/register';

export interface RecordsFeature extends RecordsHandle {
  /** Go to File Record's search, for answers in other features. */
  readonly files: FileFinder;
  readonly fileSystem: PortalFileSystem;
  /** The `portal:` URI of a document, as open() makes it (a record's page reads what this URI serves). */
  uriOf(doc: PortalDocument): vscode.Uri;
  /** Where upload journals are kept (under it, `uploads/journal/`). */
  readonly storageFolder: string;
}

/** The URI target of a document: its ids, and a name that makes the editor tab readable. */
function targetOf(doc: PortalDocument): PortalTarget {
  switch (doc.kind) {
    case 'record':
    case 'content': {
      const f = doc.file;
      // What the row knows travels with the URI: a portal without a single-record read still shows the record.
      const known = {
        groupLabel: f.group.label,
        size: f.size,
        contentType: f.contentType,
        ...(f.folders ? { folders: f.folders } : {}),
        ...(f.lastModified !== undefined ? { lastModified: f.lastModified } : {}),
      };
      return {
        kind: doc.kind,
        portalId: f.group.account.portalId,
        accountId: f.group.account.accountId,
        groupId: f.group.groupId,
        fileId: f.fileId,
        name: f.name,
        known,
      };
    }
    case 'group':
      return {
        kind: 'group',
        portalId: doc.group.account.portalId,
        accountId: doc.group.account.accountId,
        groupId: doc.group.groupId,
        name: doc.group.label,
      };
    case 'account':
      return {
        kind: 'account',
        portalId: doc.account.portalId,
        accountId: doc.account.accountId,
        name: doc.account.label,
      };
    case 'application':
      return {
        kind: 'application',
        portalId: doc.application.portalId,
        clientId: doc.application.clientId,
        name: doc.application.label,
      };
  }
}

/** A record reads as a page; its document stays behind the same URI (links, editors restored after a restart). */
async function showRecordPage(
  forms: FormHost,
  fileSystem: PortalFileSystem,
  file: FileRef,
  target: Extract<PortalTarget, { kind: 'record' }>,
): Promise<void> {
  let made = false;
  const page = forms.show(formKeys.record(file), (env, key) => {
    made = true;
    return new RecordPage(env, key, file, () => fileSystem.readRecord(target));
  });
  // Opened again, the same page shows what the portal says now.
  if (!made) await page.handleMessage({ type: 'reload' });
}

/** Opens a document fresh from the portal: a record as its page, content in the editor VS Code picks for it. */
async function openDocument(fileSystem: PortalFileSystem, forms: FormHost, doc: PortalDocument): Promise<void> {
  const target = targetOf(doc);
  const uri = uriOf(target);
  // Only URIs made here are read from the portal without a click (see mintedUris.ts).
  fileSystem.mint(uri);
  // A click means "show me now", not what was fetched a moment ago.
  fileSystem.forget(uri);
  if (doc.kind === 'record' && target.kind === 'record') return showRecordPage(forms, fileSystem, doc.file, target);
  try {
    if (doc.kind === 'content' && !isTextContentType(doc.file.contentType, doc.file.name)) {
      // Images and other binary types: VS Code picks its editor (image preview, hex, "open anyway").
      await vscode.commands.executeCommand('vscode.open', uri);
      return;
    }
    await vscode.window.showTextDocument(uri, { preview: true });
  } catch (err) {
    // VS Code words a failed read as its own file-system error; the user is told what the portal said instead.
    throw fileSystem.failureOf(uri) ?? err;
  }
}

/** The file system, which tells the user through the Ui and has each save journaled in the extension's storage. */
function fileSystemOf(
  context: vscode.ExtensionContext,
  deps: { readonly auth: AuthHandle; readonly commands: CommandEnv },
  renderers: Renderers,
): PortalFileSystem {
  return new PortalFileSystem(
    deps.auth.registry,
    context.globalState,
    renderers,
    context.globalStorageUri.fsPath,
    (message) => deps.commands.ui().notify('info', message),
  );
}

/** A save that reached the portal (VS Code says so only once the file system's write succeeded) names its group. */
function savedBack(fileSystem: PortalFileSystem, changed: (group: GroupIds) => void): vscode.Disposable {
  return vscode.workspace.onDidSaveTextDocument((doc) => {
    if (doc.uri.scheme !== PORTAL_SCHEME) return;
    const t = fileSystem.targetOfUri(doc.uri);
    if (t?.kind !== 'content') return;
    changed({ account: { portalId: t.portalId, accountId: t.accountId }, groupId: t.groupId });
  });
}

export function registerRecords(
  context: vscode.ExtensionContext,
  deps: {
    readonly auth: AuthHandle;
    readonly commands: CommandEnv;
    readonly forms: FormHost;
    /** The row selected in the Explorer (Go to File Record searches its organisation). */
    readonly selected: () => Ref | undefined;
    /** The Explorer reads its lists again (after an upload). */
    readonly refreshExplorer: () => void;
  },
): RecordsFeature {
  const renderers: Renderers = {};
  const fileSystem = fileSystemOf(context, deps, renderers);
  const open = (doc: PortalDocument): Promise<void> => openDocument(fileSystem, deps.forms, doc);
  const wentTo = new vscode.EventEmitter<FileRef>();
  const filesChanged = new vscode.EventEmitter<GroupIds>();
  const caches = { groups: new GroupListCache(), folders: new GroupFolders() };
  const uploads = registerUploads(
    deps.commands,
    deps.auth.registry,
    context.globalStorageUri.fsPath,
    deps.refreshExplorer,
  );
  const feature: RecordsFeature = {
    dropOnTree: uploads.drop,
    storageFolder: context.globalStorageUri.fsPath,
    fileSystem,
    files: fileFinder(deps.auth.registry, caches),
    uriOf: (doc) => uriOf(targetOf(doc)),
    open,
    onDidGoTo: wentTo.event,
    onDidChangeFiles: filesChanged.event,
    renders: (kind, render) => {
      renderers[kind] = render;
    },
  };
  context.subscriptions.push(
    fileSystem,
    wentTo,
    filesChanged,
    savedBack(fileSystem, (g) => filesChanged.fire(g)),
    ...registerFinderCommands(deps.commands, {
      registry: deps.auth.registry,
      records: feature,
      caches,
      selected: deps.selected,
      wentTo: (f) => wentTo.fire(f),
    }),
    vscode.workspace.registerFileSystemProvider('portal', fileSystem, { isReadonly: false, isCaseSensitive: true }),
    // A save's stat must see the portal as it is now, not as it was up to a few seconds ago.
    vscode.workspace.onWillSaveTextDocument((e) => {
      if (e.document.uri.scheme === PORTAL_SCHEME) fileSystem.forget(e.document.uri);
    }),
    ...registerFileCommands(deps.commands, deps.auth.registry, feature, (path) => vscode.Uri.file(path)),
    ...registerDocumentLoad(deps.commands, fileSystem),
    ...uploads.disposables,
  );
  return feature;
}
