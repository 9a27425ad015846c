/**
 * Which open documents are portal members files, and their parse, kept per document version so diagnostics, the
 * hover and the CodeLens read one parse between edits.
 *
 * A members file is a `.csv` document whose first line has a username column (`username`, or the export's
 * `Username` label in English or the user's language): what the export writes, or a file an admin starts by hand
 * with the same header. The name does not matter, so a file renamed by a spreadsheet program still counts.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { memberHeaders } from '../../csv/exportCsv';
import { looksLikeMembersFile, parseMembersFileInSlices, type ParseOptions } from '../core/file/membersFile';
import type { MembersFile } from '../core/model';

export function parseOptions(): ParseOptions {
  return { headers: memberHeaders() };
}

function firstLine(doc: vscode.TextDocument): string {
  return doc.lineCount > 0 ? doc.lineAt(0).text.replace(/^\uFEFF/, '') : '';
}

/** Folders whose CSV files are ours and never members files: the action reports (they have a username column too). */
const notMembersFiles: string[] = [];

export function excludeFolder(folder: string): void {
  notMembersFiles.push(path.join(folder, path.sep));
}

/** A CSV the extension wrote for itself (an action report): no members file, and no sheet to import or offboard. */
export function isOwnFile(doc: vscode.TextDocument): boolean {
  return doc.uri.scheme === 'file' && notMembersFiles.some((f) => doc.uri.fsPath.startsWith(f));
}

export function isMembersDocument(doc: vscode.TextDocument): boolean {
  if (doc.uri.scheme !== 'file' && doc.uri.scheme !== 'untitled') return false;
  if (isOwnFile(doc)) return false;
  if (!/\.csv$/i.test(doc.uri.path) && doc.languageId !== 'csv') return false;
  return looksLikeMembersFile(firstLine(doc), parseOptions());
}

const parsed = new WeakMap<vscode.TextDocument, { version: number; file: MembersFile }>();

/** The next turn of the event loop: what the sliced readers await between slices. */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** The document's parse, from cache while its text is unchanged, else read in slices. */
export async function parseDocumentInSlices(doc: vscode.TextDocument): Promise<MembersFile> {
  const cached = parsed.get(doc);
  if (cached?.version === doc.version) return cached.file;
  const version = doc.version;
  const file = await parseMembersFileInSlices(doc.getText(), parseOptions(), nextTurn);
  parsed.set(doc, { version, file });
  return file;
}
