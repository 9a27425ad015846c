/**
 * Drag and drop onto the Explorer: files and folders from the operating system (`text/uri-list`, or the files VS
 * Code hands over) and from VS Code's own Explorer (which also gives `text/uri-list`) land on a group row (its root)
 * or a folder row as an upload. Only local files count: any other URI in the list is left out, and said so.
 */
import * as vscode from 'vscode';
import type { Ref } from '../../../shared/refs';
import { placeOf, type UploadPlace } from './uploadCommand';

const URI_LIST = 'text/uri-list';

/** The local paths a drop carries: `file:` URIs of the list, else the files VS Code attached. */
export async function droppedPaths(data: vscode.DataTransfer): Promise<{ paths: string[]; others: number }> {
  const text = (await data.get(URI_LIST)?.asString()) ?? '';
  const uris = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
  const paths: string[] = [];
  let others = 0;
  for (const raw of uris) {
    try {
      const uri = vscode.Uri.parse(raw, true);
      if (uri.scheme === 'file') paths.push(uri.fsPath);
      else others++;
    } catch {
      others++;
    }
  }
  if (paths.length > 0) return { paths, others };
  data.forEach((item) => {
    const file = item.asFile();
    if (file?.uri?.scheme === 'file') paths.push(file.uri.fsPath);
  });
  return { paths, others };
}

export class UploadDropController implements vscode.TreeDragAndDropController<{ readonly ref?: Ref | undefined }> {
  readonly dropMimeTypes = [URI_LIST, 'files'];
  readonly dragMimeTypes: readonly string[] = [];

  constructor(private readonly drop: (place: UploadPlace, paths: string[], others: number) => Promise<void>) {}

  async handleDrop(target: { readonly ref?: Ref | undefined } | undefined, data: vscode.DataTransfer): Promise<void> {
    const place = placeOf(target?.ref);
    if (!place) return;
    const { paths, others } = await droppedPaths(data);
    if (paths.length === 0 && others === 0) return;
    await this.drop(place, paths, others);
  }
}
