/**
 * The read-only `portal:` file system. Each URI carries the ids of what it shows (see uri.ts), so an editor
 * restored after a restart asks again here and gets current data, or a clear error when signed out.
 */
import * as vscode from 'vscode';
import { isPortalError, type CustomNames, type PortalClient } from '../../api';
import type { PortalRegistry } from '../../auth/portalRegistry';
import { errorMessage } from '../../shared/errors';
import { accountKey } from '../../shared/keys';
import { renderAccount, renderApplication, renderFileRecord, renderGroup, text } from './render';
import { isDirectoryPath, parseTarget, targetPath, PORTAL_SCHEME, type PortalTarget } from './uri';

/** The editor is for reading; larger content is for "Download…". */
export const MAX_EDITOR_BYTES = 20 * 1024 * 1024;
/** stat and readFile come in pairs: one fetch serves both. */
const DOCUMENT_TTL_MS = 5_000;
const MAX_DOCUMENTS = 32;

interface Loaded {
  readonly bytes?: Uint8Array;
  readonly size: number;
  readonly mtime: number;
  readonly at: number;
}

export function uriOf(target: PortalTarget): vscode.Uri {
  return vscode.Uri.from({ scheme: PORTAL_SCHEME, authority: target.portalId, path: targetPath(target) });
}

export class PortalFileSystem implements vscode.FileSystemProvider, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.emitter.event;
  private readonly documents = new Map<string, Promise<Loaded>>();
  private readonly customNames = new Map<string, CustomNames>();
  private readonly subscription: vscode.Disposable;

  constructor(private readonly registry: PortalRegistry) {
    // Signing in (or out) changes what every open portal: document of that portal shows: reload them.
    this.subscription = registry.onDidChange(() => this.reloadOpenDocuments());
  }

  private reloadOpenDocuments(): void {
    this.documents.clear();
    const changed: vscode.FileChangeEvent[] = [];
    for (const doc of vscode.workspace.textDocuments) {
      if (doc.uri.scheme === PORTAL_SCHEME) changed.push({ type: vscode.FileChangeType.Changed, uri: doc.uri });
    }
    if (changed.length > 0) this.emitter.fire(changed);
  }

  watch(): vscode.Disposable {
    // Nothing pushes changes from the portal; "Refresh" in the views and reopening show new data.
    return new vscode.Disposable(() => undefined);
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    if (isDirectoryPath(uri.path)) return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0, permissions: vscode.FilePermission.Readonly };
    const target = this.targetOf(uri);
    const doc = await this.load(uri, target, false);
    return { type: vscode.FileType.File, ctime: doc.mtime, mtime: doc.mtime, size: doc.size, permissions: vscode.FilePermission.Readonly };
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    const target = this.targetOf(uri);
    const doc = await this.load(uri, target, true);
    return doc.bytes ?? new Uint8Array();
  }

  readDirectory(): [string, vscode.FileType][] {
    return [];
  }

  createDirectory(uri: vscode.Uri): never {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  writeFile(uri: vscode.Uri): never {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  delete(uri: vscode.Uri): never {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  rename(uri: vscode.Uri): never {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  /** Forgets what was fetched for a URI, so the next open shows current data. */
  forget(uri?: vscode.Uri): void {
    if (uri) this.documents.delete(uri.toString());
    else this.documents.clear();
  }

  dispose(): void {
    this.subscription.dispose();
    this.documents.clear();
    this.emitter.dispose();
  }

  private targetOf(uri: vscode.Uri): PortalTarget {
    const target = parseTarget(uri.authority, uri.path);
    if (!target) throw vscode.FileSystemError.FileNotFound(uri);
    return target;
  }

  /** One fetch per URI for a few seconds; content bytes only when an editor reads them. */
  private load(uri: vscode.Uri, target: PortalTarget, needBytes: boolean): Promise<Loaded> {
    const key = uri.toString();
    const cached = this.documents.get(key);
    if (cached) {
      const fresh = cached.then((d) => (Date.now() - d.at <= DOCUMENT_TTL_MS && (!needBytes || d.bytes) ? d : undefined), () => undefined);
      return fresh.then((d) => d ?? this.fetch(uri, key, target, needBytes));
    }
    return this.fetch(uri, key, target, needBytes);
  }

  private fetch(uri: vscode.Uri, key: string, target: PortalTarget, needBytes: boolean): Promise<Loaded> {
    const p = this.fetchUncached(target, needBytes).catch((error: unknown) => {
      this.documents.delete(key);
      throw toFileSystemError(error, uri);
    });
    this.documents.set(key, p);
    while (this.documents.size > MAX_DOCUMENTS) {
      const oldest = this.documents.keys().next().value;
      if (oldest === undefined) break;
      this.documents.delete(oldest);
    }
    return p;
  }

  private async fetchUncached(target: PortalTarget, needBytes: boolean): Promise<Loaded> {
    const connection = this.registry.get(target.portalId);
    const portalLabel = connection?.entry.label ?? target.portalId;
    const encode = (s: string): Loaded => {
      const bytes = new TextEncoder().encode(s);
      return { bytes, size: bytes.length, mtime: Date.now(), at: Date.now() };
    };
    // A document restored after a restart whose portal is signed out (or gone) says so, instead of an editor error;
    // it reloads by itself after sign-in (see reloadOpenDocuments). Content is bytes of a file: no such text there.
    if (!connection?.client && target.kind !== 'content') {
      return encode(renderNotSignedIn(target, portalLabel, connection !== undefined));
    }
    const client = this.registry.client(target.portalId);
    switch (target.kind) {
      case 'record': {
        const [record, customNames] = await Promise.all([
          client.v2.files.get(target.accountId, target.groupId, target.fileId),
          this.custom(client, target.portalId, target.accountId),
        ]);
        const doc = encode(renderFileRecord(record, { portalLabel, accountId: target.accountId, groupId: target.groupId, customNames }));
        return { ...doc, mtime: record.lastModified ?? doc.mtime };
      }
      case 'content': {
        const record = await client.v2.files.get(target.accountId, target.groupId, target.fileId);
        if (record.isFolder) throw vscode.FileSystemError.FileIsADirectory(record.name);
        const mtime = record.lastModified ?? Date.now();
        if (!needBytes) return { size: record.size, mtime, at: Date.now() };
        if (record.size > MAX_EDITOR_BYTES) {
          throw vscode.FileSystemError.Unavailable(`${record.name} is ${Math.round(record.size / 1048576)} MB, too large for an editor. Use "Download…" instead.`);
        }
        const bytes = await downloadBytes(client, target.groupId, target.fileId, MAX_EDITOR_BYTES);
        return { bytes, size: bytes.length, mtime, at: Date.now() };
      }
      case 'group': {
        const [group, customNames] = await Promise.all([
          client.v2.groups.get(target.accountId, target.groupId),
          this.custom(client, target.portalId, target.accountId),
        ]);
        return encode(renderGroup(group, { portalLabel, accountId: target.accountId, customNames }));
      }
      case 'account': {
        const [account, sub, info] = await Promise.all([
          client.v3.accounts.get(target.accountId),
          client.v3.accounts.subscription(target.accountId).catch((e: unknown) => {
            if (isPortalError(e, 'forbidden')) return { forbidden: true as const };
            throw e;
          }),
          client.v3.userinfo().catch(() => undefined),
        ]);
        const permission = info?.accounts.find((a) => a.account.id === target.accountId)?.permission;
        return encode(renderAccount(account, sub, { portalLabel, permission }));
      }
      case 'application': {
        const app = await client.v3.applications.get(target.clientId);
        const current = this.registry.get(target.portalId)?.clientId === app.clientId;
        return encode(renderApplication(app, { portalLabel, current }));
      }
    }
  }

  /** Custom names decorate a document; they never fail it. Kept per account for the session. */
  private async custom(client: PortalClient, portalId: string, accountId: number): Promise<CustomNames | undefined> {
    const key = accountKey({ portalId, accountId });
    const known = this.customNames.get(key);
    if (known) return known;
    try {
      const names = await client.v2.accounts.custom(accountId);
      this.customNames.set(key, names);
      return names;
    } catch {
      return undefined;
    }
  }
}

function renderNotSignedIn(target: PortalTarget, portalLabel: string, known: boolean): string {
  const what = target.kind === 'record' ? 'file record' : target.kind === 'group' ? 'group' : target.kind === 'account' ? 'organisation' : 'application';
  return [
    `# ${text(target.name.replace(/ \((record|group|organisation|application)\)$/, ''))}`,
    '',
    known
      ? `This ${what} is on ${text(portalLabel)}, which is signed out. Sign in (Portal view → "Sign in again…") and this document loads here.`
      : `This ${what} is on a portal that is no longer in the Portal views (${text(portalLabel)}). Add it again by signing in to it.`,
    '',
  ].join('\n');
}

/** Reads a download fully, refusing more than `limit` bytes (the server's size may be stale). */
async function downloadBytes(client: PortalClient, groupId: number, fileId: number, limit: number): Promise<Uint8Array> {
  const controller = new AbortController();
  const download = await client.v2.files.download(groupId, fileId, { signal: controller.signal });
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of download.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limit) {
        controller.abort();
        throw vscode.FileSystemError.Unavailable('The content is too large for an editor. Use "Download…" instead.');
      }
      chunks.push(chunk);
    }
  } finally {
    download.body.destroy();
  }
  return new Uint8Array(Buffer.concat(chunks));
}

function toFileSystemError(error: unknown, uri: vscode.Uri): Error {
  if (error instanceof vscode.FileSystemError) return error;
  if (isPortalError(error, 'not-found')) return vscode.FileSystemError.FileNotFound(uri);
  if (isPortalError(error, 'forbidden')) return vscode.FileSystemError.NoPermissions(error.message);
  return vscode.FileSystemError.Unavailable(errorMessage(error));
}
