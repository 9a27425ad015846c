/**
 * A file record as a readable page: its name as the title, its details, and buttons that run "Open Content" and
 * "Download…" on it. Read-only: the page sends no values, only which of the two commands to run.
 */
import * as vscode from 'vscode';
import type { FileRecord } from '../../../../api/index';
import { FormPanel, type FormEnv, type SaveOutcome } from '../../../../forms/formPanel';
import type { FormKey } from '../../../../shared/keys';
import type { FileRef } from '../../../../shared/refs';
import { Vouched } from '../../../../ui/vouched';
import { recordCommands, type RecordCommand, type RecordState } from './record.protocol';
import { recordIds, recordKind, recordSections, recordTitle, type RecordContext } from './render';

/** The record handed to a command the page runs, vouched for as a row of this extension is. */
class PageRecord extends Vouched {
  constructor(readonly ref: FileRef) {
    super();
  }
}

/** The commands the page's buttons run, by the message that asks for them. */
const COMMANDS = { openContent: 'portal.file.openContent', download: 'portal.file.download' } as const;

export class RecordPage extends FormPanel<RecordState, null, RecordCommand> {
  constructor(
    env: FormEnv,
    key: FormKey,
    private readonly file: FileRef,
    private readonly read: () => Promise<{ record: FileRecord; context: RecordContext }>,
  ) {
    super(env, 'record', key, file.name, recordCommands);
    this.start();
  }

  protected async load(): Promise<RecordState> {
    const { record, context } = await this.read();
    return {
      title: recordTitle(record),
      summary: recordKind(record, context),
      isFolder: record.isFolder,
      sections: recordSections(record, context),
      details: recordIds(record, context),
      notices: [...(context.notices ?? [])],
    };
  }

  protected override onCommand(command: RecordCommand): Promise<void> | void {
    if (command.type !== 'openContent' && command.type !== 'download') return super.onCommand(command);
    const id = COMMANDS[command.type];
    // The command says its own failures (a notification, as from the Explorer); the page only waits for it.
    return this.busy(command.type, async () => {
      await vscode.commands.executeCommand(id, new PageRecord(this.file));
    });
  }

  protected valuesOf(): string {
    return 'the record page saves nothing';
  }

  protected save(): Promise<SaveOutcome<RecordState>> {
    return Promise.reject(new Error('the record page saves nothing'));
  }

  protected fieldOf(): undefined {
    return undefined;
  }
}
