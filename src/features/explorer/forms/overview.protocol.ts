/** Account overview: the subscription at a glance, components, features, capabilities, and renaming. */
import { COMMON_COMMANDS, type FormStateBase } from '../../../forms/protocol/common';
import { int, messages, object, str, type Infer } from '../../../forms/protocol/validate';

const values = object({
  /** Echo of the account the panel was opened for; the host refuses any other. */
  accountId: int({ min: 1 }),
  friendlyName: str({ max: 200 }),
  name: str({ max: 63 }),
  locale: str({ max: 20 }),
});
export type OverviewValues = Infer<typeof values>;

export const overviewCommands = messages({ ...COMMON_COMMANDS, save: { values } });
export type OverviewCommand = Infer<typeof overviewCommands>;

export interface Usage {
  used: number;
  /** What the package allows; null when the portal did not say. */
  allowed: number | null;
}

export interface SubscriptionView {
  plan: string;
  code: string;
  trialExpires: number | null;
  paused: boolean;
  pausedBillingCycles: number | null;
  datePausedAt: number | null;
  suspended: boolean;
  storage: Usage;
  members: Usage;
  emails: Usage;
}

export interface ComponentView {
  name: string;
  title: string;
  /** The organisation's own name for it (v2 custom names), when it has one. */
  customName: string | null;
  description: string;
  beta: boolean;
}

export interface OverviewState extends FormStateBase {
  accountId: number;
  friendlyName: string;
  name: string;
  enabled: boolean;
  domain: string | null;
  dateCreated: number | null;
  /** Null when the subscription could not be read (the notices say why). */
  subscription: SubscriptionView | null;
  components: ComponentView[];
  features: string[];
  capabilities: string[];
  /** The user's permission in the account (2.9), for the "what you can change" hint. */
  permission: number | null;
  values: OverviewValues;
}
