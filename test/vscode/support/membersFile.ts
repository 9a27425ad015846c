// Editing a members file as a person would in the editor: one cell, or a new row, through a WorkspaceEdit at the
// place the engine's parse gives. The file is read back with the same parser the extension uses.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { csvCell } from '../../../src/features/members/csv/csv';
import {
  cellOf as fileCellOf,
  parseMembersFile,
  usernameOf,
} from '../../../src/features/members/plan/core/file/membersFile';
import type {
  ColumnKey,
  FileCell,
  MembersFileRow,
  MembersFile,
  Span,
} from '../../../src/features/members/plan/core/model';
import { PATIENCE_MS } from '../../support/wait';

/** The tag the interrupted apply adds (main phase) and the restart phase checks, and how many members it changes. */
export const RESUME_TAG = 'resumed-after-restart';
export const RESUME_MEMBERS = 20;

export const rangeOf = (s: Span): vscode.Range => new vscode.Range(s.line, s.column, s.endLine, s.endColumn);

export function readFile(doc: vscode.TextDocument): MembersFile {
  return parseMembersFile(doc.getText());
}

export function rowOf(doc: vscode.TextDocument, username: string): MembersFileRow {
  const file = readFile(doc);
  const row = file.rows.find((r) => usernameOf(file, r) === username);
  assert.ok(row, `row of ${username}`);
  return row;
}

/** Usernames of the file's rows, in file order. */
export function usernames(doc: vscode.TextDocument): string[] {
  const file = readFile(doc);
  return file.rows.map((r) => usernameOf(file, r));
}

function cellAt(doc: vscode.TextDocument, username: string, key: ColumnKey): FileCell {
  const cell = fileCellOf(readFile(doc), rowOf(doc, username), key);
  assert.ok(cell, `${username} has a ${key} cell`);
  return cell;
}

/** The cell's text as written (quotes and neutralising undone). */
export function cellOf(doc: vscode.TextDocument, username: string, key: ColumnKey): string {
  return cellAt(doc, username, key).value;
}

/** Replaces one cell with `value`, written as CSV (quoted when it must be). Returns the cell's range after the edit. */
export async function setCell(
  doc: vscode.TextDocument,
  username: string,
  key: ColumnKey,
  value: string,
): Promise<vscode.Range> {
  const cell = cellAt(doc, username, key);
  const edit = new vscode.WorkspaceEdit();
  const range = rangeOf(cell.span);
  const text = csvCell(value);
  edit.replace(doc.uri, range, text);
  assert.ok(await vscode.workspace.applyEdit(edit), 'the edit applied');
  return new vscode.Range(range.start, range.start.translate(0, text.length));
}

/** Appends a row with these cells (every other column empty). */
export async function appendRow(doc: vscode.TextDocument, cells: Partial<Record<ColumnKey, string>>): Promise<void> {
  const header = readFile(doc).header;
  const line = header.map((h) => csvCell((h.key && cells[h.key]) ?? '')).join(',');
  const last = doc.lineAt(doc.lineCount - 1);
  const edit = new vscode.WorkspaceEdit();
  edit.insert(doc.uri, last.range.end, last.text === '' ? `${line}\r\n` : `\r\n${line}`);
  assert.ok(await vscode.workspace.applyEdit(edit), 'the row was added');
}

/** Deletes a member's row. */
export async function deleteRow(doc: vscode.TextDocument, username: string): Promise<void> {
  const row = rowOf(doc, username);
  const next = readFile(doc).rows.find((r) => r.row === row.row + 1);
  const end = next ? new vscode.Position(next.line, 0) : doc.lineAt(doc.lineCount - 1).range.end;
  const edit = new vscode.WorkspaceEdit();
  edit.delete(doc.uri, new vscode.Range(row.line, 0, end.line, end.character));
  assert.ok(await vscode.workspace.applyEdit(edit), 'the row was deleted');
}

/** Polls `get` every 50 ms until `ok` holds for its value (bounded); returns that value. */
export async function eventually<T>(
  get: () => T | Promise<T>,
  ok: (value: T) => boolean,
  what: string,
  timeoutMs = PATIENCE_MS,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await get();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
