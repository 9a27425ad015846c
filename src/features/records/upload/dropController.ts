/**
 * Drag and drop onto the Explorer: files and folders from the operating system and from VS Code's own Explorer land
 * on a group row (its root) or a folder row as an upload.
 *
 * What a drop carries depends on where VS Code runs:
 * - desktop VS Code, and VS Code's own Explorer anywhere: `text/uri-list` with `file:` URIs (folders included), or
 *   items whose `asFile().uri` is a `file:` URI;
 * - VS Code in a browser (code-server, a remote through the web): an OS drop gives items with a name and bytes but
 *   no URI (the browser never tells a page where a file lives), and a dropped folder comes as one item with its name
 *   only: the workbench reads `getAsFile()` of each dropped item, never the folder's entries, so its files do not
 *   reach an extension. Files are uploaded from their bytes; a folder is named back, so the person can upload it
 *   through the folder dialog instead.
 * Any other URI is left out, and said so. That includes `vscode-local:` (a `file:` URI of the browser's machine, as
 * the remote extension host sees it): its path names a file on another machine, so reading the same path here would
 * upload whatever this machine holds there, not what was dragged.
 */
import * as vscode from 'vscode';
import type { Ref } from '../../../shared/refs';
import { placeOf, type UploadPlace } from './place';

const URI_LIST = 'text/uri-list';

/** A file dropped without a path: its name and its bytes, as VS Code handed them over. */
export interface DroppedFile {
  readonly name: string;
  readonly bytes: Uint8Array;
}

/** What a drop carries, sorted by what can be done with it. */
export interface Dropped {
  /** Local paths (files or folders) to upload as they are. */
  readonly paths: string[];
  /** Files that came as bytes only. */
  readonly files: DroppedFile[];
  /** Names of items whose bytes could not be read: folders dropped into VS Code in a browser. */
  readonly folders: string[];
  /** URIs that are not local files. */
  readonly others: number;
}

function uriListPaths(text: string): { paths: string[]; others: number } {
  const paths: string[] = [];
  let others = 0;
  for (const line of text.split(/\r?\n/)) {
    const raw = line.trim();
    if (raw === '' || raw.startsWith('#')) continue;
    try {
      const uri = vscode.Uri.parse(raw, true);
      if (uri.scheme === 'file') paths.push(uri.fsPath);
      else others++;
    } catch {
      others++;
    }
  }
  return { paths, others };
}

/** The drop's items: `file:` URIs as paths, else the bytes; an item whose bytes cannot be read is a folder. */
async function droppedItems(data: vscode.DataTransfer): Promise<Dropped> {
  const out = { paths: [] as string[], files: [] as DroppedFile[], folders: [] as string[], others: 0 };
  for (const [, item] of data) {
    const file = item.asFile();
    if (!file) continue;
    if (file.uri?.scheme === 'file') {
      out.paths.push(file.uri.fsPath);
      continue;
    }
    if (file.uri) {
      out.others++;
      continue;
    }
    const bytes = await file.data().then(
      (b) => b,
      () => undefined,
    );
    if (bytes) out.files.push({ name: file.name, bytes });
    else out.folders.push(file.name);
  }
  return out;
}

/**
 * What a drop carries. The URI list comes first: where it names local files (desktop VS Code, VS Code's Explorer)
 * the items repeat the same files.
 */
export async function readDrop(data: vscode.DataTransfer): Promise<Dropped> {
  const listed = uriListPaths((await data.get(URI_LIST)?.asString()) ?? '');
  if (listed.paths.length > 0) return { ...listed, files: [], folders: [] };
  const items = await droppedItems(data);
  // With files, the browser's list only repeats their names as URIs (a name like "a:b" reads as one): not others.
  const fromFiles = items.files.length + items.folders.length > 0;
  return { ...items, others: items.others + (fromFiles ? 0 : listed.others) };
}

export class UploadDropController implements vscode.TreeDragAndDropController<{ readonly ref?: Ref | undefined }> {
  // 'files': VS Code hands over an OS drop's files only to a controller that declares it.
  readonly dropMimeTypes = [URI_LIST, 'files'];
  readonly dragMimeTypes: readonly string[] = [];

  constructor(private readonly drop: (place: UploadPlace, dropped: Dropped) => Promise<void>) {}

  async handleDrop(target: { readonly ref?: Ref | undefined } | undefined, data: vscode.DataTransfer): Promise<void> {
    const place = placeOf(target?.ref);
    if (!place) return;
    const dropped = await readDrop(data);
    const { paths, files, folders, others } = dropped;
    if (paths.length + files.length + folders.length + others === 0) return;
    await this.drop(place, dropped);
  }
}
