/** The record page: a file record to read, with its content and download one click away. */
import { COMMON_COMMANDS, type FormStateBase } from '../../../../forms/protocol/common';
import { messages, type Infer } from '../../../../forms/protocol/validate';

/** The page asks for the record's content in an editor, or for a download; nothing it sends names a record. */
export const recordCommands = messages({ ...COMMON_COMMANDS, openContent: {}, download: {} });
export type RecordCommand = Infer<typeof recordCommands>;

/** One titled part of a record: labelled values, escaped for where they are shown. */
export interface RecordSection {
  readonly title: string;
  readonly rows: ReadonlyArray<readonly [label: string, value: string]>;
}

export interface RecordState extends FormStateBase {
  /** The name a person knows the record by. */
  title: string;
  /** "File record on Demo portal." */
  summary: string;
  /** A folder has no content to open or download here. */
  isFolder: boolean;
  sections: RecordSection[];
  /** The ids, shown apart as details. */
  details: RecordSection;
}
