/**
 * What the first half of "a reload restores the Explorer, the Members view and the matrix" (suites/main/
 * zz-reload-state.test.ts) hands to the second (suites/restart/a0-reload-state.test.ts): the organisation, the
 * state the matrix page keeps for a reload, and what the Members view showed. Kept beside the phase results, which
 * outlive the extension host.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';

/** Both halves' titles hold it, so one --grep runs the pair. */
export const RELOAD_RESTART = 'a reload restores the Explorer, the Members view and the access matrix';

export interface ReloadRestartRecord {
  readonly portalId: string;
  readonly accountId: number;
  readonly label: string;
  /** The matrix page's kept state, as VS Code hands it to the serializer. */
  readonly matrixState: unknown;
  readonly matrixRows: number;
  readonly membersQuery: unknown;
  /**
   * When the first half ended (Date.now() in the extension host): every row the second half shows was read before it.
   * The emulator's request counts cannot say so, as a later suite of the first phase resets them.
   */
  readonly recordedAt: number;
}

/** The open tabs of the access matrix, as VS Code lists them (a webview tab's view type carries a prefix). */
export function matrixTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all.flatMap((g) =>
    g.tabs.filter((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith('portal.accessMatrix')),
  );
}

function recordFile(): string {
  const results = process.env.PORTAL_TEST_RESULTS;
  if (!results) throw new Error('PORTAL_TEST_RESULTS is not set: the runner provides it');
  return path.join(path.dirname(results), 'vscode-reload-restart.json');
}

export function writeReloadRecord(record: ReloadRestartRecord): void {
  fs.writeFileSync(recordFile(), JSON.stringify(record));
}

/** The record, removed as it is read so that a later run never takes it for its own. */
export function takeReloadRecord(): ReloadRestartRecord {
  const file = recordFile();
  const record = JSON.parse(fs.readFileSync(file, 'utf8')) as ReloadRestartRecord;
  fs.rmSync(file, { force: true });
  return record;
}
