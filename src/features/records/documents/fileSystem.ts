/**
 * The `portal:` file system: read-only, but for a text file record's content, which saves back as a new version
 * (saveBack.ts). Each URI carries the ids of what it shows (see uri.ts), so an editor
 * restored after a restart asks again here and gets current data, or a clear error when signed out.
 */
import * as vscode from 'vscode';
import { isPortalError, refusesUploads } from '../../../api/index';
import type { PortalRegistry } from '../../../auth/portalRegistry';
import { errorMessage } from '../../../shared/errors';
import { SaveBaselines } from './baselines';
import { ContentRefused } from './contentBytes';
import { Documents, type Loaded, type Renderers } from './documents';
import { MintedUris, type MintedStorage } from './mintedUris';
import { renderNotLoaded } from './problems';
import { SaveConflict, SaveUnchecked } from './saveBack';
import { isDirectoryPath, knownQuery, parseTarget, targetPath, PORTAL_SCHEME, type PortalTarget } from './uri';

/** stat and readFile come in pairs: one fetch serves both. */
const DOCUMENT_TTL_MS = 5_000;
const MAX_DOCUMENTS = 32;

export function uriOf(target: PortalTarget): vscode.Uri {
  const query = target.kind === 'record' || target.kind === 'content' ? knownQuery(target.known) : '';
  return vscode.Uri.from({ scheme: PORTAL_SCHEME, authority: target.portalId, path: targetPath(target), query });
}

/**
 * One key per document, whichever way its URI is spelt: a URI VS Code hands back may encode its query differently
 * from the one the extension made, and both must find the same fetch.
 */
function keyOf(uri: vscode.Uri): string {
  return `${uri.authority}${uri.path}?${uri.query}`;
}

export class PortalFileSystem implements vscode.FileSystemProvider, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.emitter.event;
  private readonly documents = new Map<string, Promise<Loaded>>();
  /** Why the last fetch of a URI failed, in the portal's terms (VS Code wraps what it is given in its own words). */
  private readonly failures = new Map<string, unknown>();
  private readonly loader: Documents;
  private readonly subscription: vscode.Disposable;
  private readonly minted: MintedUris;
  /** By document: what its editor was given, and what its saves must find on the portal (see baselines.ts). */
  private readonly baselines: SaveBaselines;
  /** Portals this session has said of, before their first save, that a saved version cannot be undone. */
  private readonly toldNoUndo = new Set<string>();
  /** Portals that answered a save as if they had no upload endpoints: their content stays read-only. */
  private readonly withoutUploads = new Set<string>();
  private readonly trustChanged = new vscode.EventEmitter<vscode.Uri>();
  /** A URI became loadable: a person chose to load it (its placeholder is gone). */
  readonly onDidTrust = this.trustChanged.event;

  constructor(
    private readonly registry: PortalRegistry,
    storage: MintedStorage,
    renderers: Renderers,
    /** The extension's storage folder: the write engine stages and journals each save there. */
    storageFolder: string,
    /** Tells the user something without asking (a notification). */
    private readonly tell: (message: string) => void,
  ) {
    this.baselines = new SaveBaselines((key) => this.openDocument(key) !== undefined, storageFolder);
    this.loader = new Documents(registry, renderers);
    this.minted = new MintedUris(storage);
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
    if (isDirectoryPath(uri.path))
      return {
        type: vscode.FileType.Directory,
        ctime: 0,
        mtime: 0,
        size: 0,
        permissions: vscode.FilePermission.Readonly,
      };
    const target = this.targetOf(uri);
    const doc = this.isTrusted(uri) ? await this.load(uri, target, false) : this.notLoaded(target);
    const writable = doc.writable === true && !this.withoutUploads.has(target.portalId);
    // Editable content: the figures VS Code's own conflict check compares come from the portal's version now.
    const shown =
      target.kind === 'content' && doc.writable === true
        ? await this.baselines
            .stat(
              keyOf(uri),
              this.registry.client(target.portalId),
              target,
              this.openDocument(keyOf(uri))?.isDirty ?? false,
            )
            .catch((error: unknown) => {
              throw toFileSystemError(error, uri);
            })
        : doc;
    return {
      type: vscode.FileType.File,
      ctime: shown.mtime,
      mtime: shown.mtime,
      size: shown.size,
      ...(writable ? {} : { permissions: vscode.FilePermission.Readonly }),
    };
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    const target = this.targetOf(uri);
    const doc = this.isTrusted(uri) ? await this.load(uri, target, true) : this.notLoaded(target);
    const bytes = doc.bytes ?? new Uint8Array();
    if (doc.seen) this.baselines.read(keyOf(uri), doc.seen, bytes, this.openDocument(keyOf(uri))?.isDirty ?? false);
    if (target.kind === 'content' && doc.writable === true && !this.withoutUploads.has(target.portalId))
      this.tellNoUndo(target.portalId, target.name);
    return bytes;
  }

  /**
   * A portal's first editable content of the session says, before any save can send it, that a save is a new version
   * on the portal and cannot be undone. Once a session per portal: a question on every Ctrl+S would be a modal no
   * editor asks, and VS Code's own save would wait on it.
   */
  private tellNoUndo(portalId: string, name: string): void {
    if (this.toldNoUndo.has(portalId)) return;
    this.toldNoUndo.add(portalId);
    this.tell(
      vscode.l10n.t(
        'Saving {0} sends a new version of it to the portal. A saved version cannot be undone: the portal’s API offers no way to take one back. Show Change History… lists each save.',
        name,
      ),
    );
  }

  /** The open editor's document of a key, if any (one key per document: see keyOf). */
  private openDocument(key: string): vscode.TextDocument | undefined {
    return vscode.workspace.textDocuments.find((d) => d.uri.scheme === PORTAL_SCHEME && keyOf(d.uri) === key);
  }

  readDirectory(): [string, vscode.FileType][] {
    return [];
  }

  createDirectory(uri: vscode.Uri): never {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  /**
   * A save: a new version of the record, if the portal's copy is still the one the editor was given (or the newer
   * one VS Code's own Compare / Overwrite showed: see baselines.ts). VS Code stats the file just before, and that
   * stat shows it any move since opening, so its own choice comes first; this check catches a move after that stat.
   */
  async writeFile(uri: vscode.Uri, content: Uint8Array): Promise<void> {
    const target = this.targetOf(uri);
    if (target.kind !== 'content' || !this.isTrusted(uri)) throw vscode.FileSystemError.NoPermissions(uri);
    const key = keyOf(uri);
    try {
      await this.baselines.write(key, this.registry.client(target.portalId), target, content);
    } catch (error) {
      if (refusesUploads(error)) this.withoutUploads.add(target.portalId);
      throw toSaveError(error, uri);
    } finally {
      this.documents.delete(key);
    }
  }

  delete(uri: vscode.Uri): never {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  rename(uri: vscode.Uri): never {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  /** This extension made the URI: it is read from the portal at once, now and after a restart. */
  mint(uri: vscode.Uri): void {
    this.minted.mint(uri);
  }

  /** False for a URI this extension did not make and nobody chose to load: it shows a placeholder. */
  isTrusted(uri: vscode.Uri): boolean {
    return this.minted.trust(uri) !== undefined;
  }

  /** A person chose to load a placeholder: its document is read from the portal (its query still ignored). */
  loadOnRequest(uri: vscode.Uri): void {
    this.minted.trustPath(uri);
    this.forget(uri);
    this.trustChanged.fire(uri);
    this.emitter.fire([{ type: vscode.FileChangeType.Changed, uri }]);
  }

  /** What the URI names, if anything (its query only when this extension wrote it). */
  targetOfUri(uri: vscode.Uri): PortalTarget | undefined {
    return parseTarget(uri.authority, uri.path, this.minted.trust(uri) === 'full' ? uri.query : '');
  }

  /** A file record's details for its page, read as its document reads them. */
  readRecord(target: Extract<PortalTarget, { kind: 'record' }>): ReturnType<Documents['record']> {
    return this.loader.record(target);
  }

  /** The portal's label for a URI's authority, when it is one of the user's portals. */
  portalLabel(portalId: string): string | undefined {
    return this.registry.get(portalId)?.entry.label;
  }

  /** Forgets what was fetched for a URI, so the next open shows current data. */
  forget(uri?: vscode.Uri): void {
    if (uri) {
      this.documents.delete(keyOf(uri));
      this.failures.delete(keyOf(uri));
    } else {
      this.documents.clear();
      this.failures.clear();
    }
  }

  /** The error behind the last failed read of a URI, as the extension said it (not as VS Code rewrapped it). */
  failureOf(uri: vscode.Uri): unknown {
    return this.failures.get(keyOf(uri));
  }

  dispose(): void {
    this.subscription.dispose();
    this.trustChanged.dispose();
    this.documents.clear();
    this.emitter.dispose();
  }

  private targetOf(uri: vscode.Uri): PortalTarget {
    const target = this.targetOfUri(uri);
    if (!target) throw vscode.FileSystemError.FileNotFound(uri);
    return target;
  }

  /** The placeholder: nothing is read from the portal for a URI this extension did not make. */
  private notLoaded(target: PortalTarget): Loaded {
    const bytes = new TextEncoder().encode(renderNotLoaded(target, this.portalLabel(target.portalId)));
    return { bytes, size: bytes.length, mtime: 0, at: Date.now() };
  }

  /**
   * One fetch per URI for a few seconds; content bytes only when an editor reads them, and then always afresh: the
   * bytes an editor is given must be the portal's copy as the stat just before showed it, never an older one.
   */
  private load(uri: vscode.Uri, target: PortalTarget, needBytes: boolean): Promise<Loaded> {
    const key = keyOf(uri);
    const cached = needBytes && target.kind === 'content' ? undefined : this.documents.get(key);
    if (cached) {
      const fresh = cached.then(
        (d) => (Date.now() - d.at <= DOCUMENT_TTL_MS && (!needBytes || d.bytes) ? d : undefined),
        () => undefined,
      );
      return fresh.then((d) => d ?? this.fetch(uri, key, target, needBytes));
    }
    return this.fetch(uri, key, target, needBytes);
  }

  private fetch(uri: vscode.Uri, key: string, target: PortalTarget, needBytes: boolean): Promise<Loaded> {
    // A failure stays until the next open (forget): VS Code stats a file again after a failed read, and that stat
    // must not wipe out why the read failed.
    const p = this.loader.load(target, needBytes).catch((error: unknown) => {
      this.documents.delete(key);
      this.failures.set(key, error);
      while (this.failures.size > MAX_DOCUMENTS) this.failures.delete(this.failures.keys().next().value as string);
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
}

function toSaveError(error: unknown, uri: vscode.Uri): Error {
  if (error instanceof SaveConflict) return vscode.FileSystemError.FileExists(error.message);
  if (error instanceof SaveUnchecked) return vscode.FileSystemError.Unavailable(error.message);
  if (refusesUploads(error))
    return vscode.FileSystemError.NoPermissions(
      vscode.l10n.t(
        'This portal does not accept uploads (the upload endpoints other clients use are not there), so the file was not saved. Its content stays read-only.',
      ),
    );
  return toFileSystemError(error, uri);
}

function toFileSystemError(error: unknown, uri: vscode.Uri): Error {
  if (error instanceof vscode.FileSystemError) return error;
  if (error instanceof ContentRefused)
    return error.isFolder
      ? vscode.FileSystemError.FileIsADirectory(uri)
      : vscode.FileSystemError.Unavailable(error.message);
  if (isPortalError(error, 'not-found')) return vscode.FileSystemError.FileNotFound(uri);
  if (isPortalError(error, 'forbidden')) return vscode.FileSystemError.NoPermissions(error.message);
  return vscode.FileSystemError.Unavailable(errorMessage(error));
}
