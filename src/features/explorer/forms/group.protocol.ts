/** Create / edit group (v2): names, enabled components, chat/comments/widgets switches, branding colours. */
import { COMMON_COMMANDS, type FormStateBase } from '../../../forms/protocol/common';
import { arrayOf, bool, int, messages, object, str, type Infer } from '../../../forms/protocol/validate';

/** Empty (not set) or a CSS hex colour. */
export const COLOUR = /^(#[0-9a-fA-F]{3}|#[0-9a-fA-F]{6})?$/;

const values = object({
  /** Echo of the account and group the panel was opened for (groupId 0 when creating). */
  accountId: int({ min: 1 }),
  groupId: int({ min: 0 }),
  name: str({ max: 100 }),
  friendlyName: str({ max: 200 }),
  /** Enabled component names; the host checks each against the choices it offered. */
  components: arrayOf(str({ min: 1, max: 40 }), { max: 40 }),
  chat: bool,
  comments: bool,
  /** Home widgets. */
  widgets: bool,
  /** The Recent, Created by and I follow widgets. */
  accordionWidgets: bool,
  /** Checked against COLOUR by the host, so a typo comes back as a field error rather than a dropped message. */
  headerColor: str({ max: 40 }),
  textColor: str({ max: 40 }),
});
export type GroupValues = Infer<typeof values>;

export const groupCommands = messages({ ...COMMON_COMMANDS, save: { values } });
export type GroupCommand = Infer<typeof groupCommands>;

export interface ComponentChoice {
  name: string;
  /** The component's title, with the organisation's own name for it when it has one. */
  label: string;
}

export interface GroupState extends FormStateBase {
  mode: 'create' | 'edit';
  accountId: number;
  /** '' when the portal did not answer the organisation read. */
  accountName: string;
  /** 0 when creating. */
  groupId: number;
  components: ComponentChoice[];
  /** False when the portal did not say whether home widgets are on (the switch is then sent only if changed). */
  widgetsKnown: boolean;
  values: GroupValues;
}
