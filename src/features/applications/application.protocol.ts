/** Create application (v3) and the one-time display of its client credentials (also after a secret rotation). */
import { APPLICATION_PLATFORMS, DEVICE_TYPES } from '../../api/models/application';
import type { ApplicationDetails } from '../../api';
import { COMMON_COMMANDS, type FormStateBase } from '../../forms/protocol/common';
import { literal, messages, object, oneOf, str, type Infer } from '../../forms/protocol/validate';

export { APPLICATION_PLATFORMS, DEVICE_TYPES };

const line = str({ max: 200 });
const values = object({
  /** Blank is refused by the host as a field error (not dropped), so the user is told. */
  name: str({ max: 200 }),
  description: str({ max: 2000 }),
  platform: oneOf(APPLICATION_PLATFORMS),
  deviceType: oneOf(DEVICE_TYPES),
  deviceModel: line,
  deviceOs: line,
  appVersion: line,
  bundleId: line,
});
export type ApplicationValues = Infer<typeof values>;

export const applicationCommands = messages({
  ...COMMON_COMMANDS,
  /** Create the application (create mode). */
  save: { values },
  /** Rotate the secret of the application the panel shows (rotate mode); the id is an echo the host checks. */
  rotate: { clientId: str({ min: 1, max: 200 }) },
  /** Copy a credential: the host copies its own copy, so the secret never travels back from the webview. */
  copy: { what: oneOf(['clientId', 'clientSecret'] as const) },
  /** Store the shown credentials as this portal's sign-in (SecretStorage). */
  useCredentials: { confirm: literal('yes') },
  /** "Done": the host drops its copy too, so a reloaded panel cannot show it again. */
  hideCredentials: {},
});
export type ApplicationCommand = Infer<typeof applicationCommands>;

export type ApplicationSummary = { clientId: string } & ApplicationDetails;

export type ApplicationState = FormStateBase &
  (
    | { mode: 'create'; portalLabel: string; username: string; values: ApplicationValues }
    | {
        mode: 'rotate';
        portalLabel: string;
        username: string;
        application: ApplicationSummary;
        inUse: boolean;
        values: ApplicationValues;
      }
  );

/**
 * Host → webview, once per creation or rotation (and again if the webview reloads while the panel is open).
 * The webview shows it and never stores it: not in setState, not after Close.
 */
export interface CredentialsMessage {
  type: 'credentials';
  clientId: string;
  clientSecret: string;
  /** True when these are now this portal's sign-in (stored in SecretStorage). */
  stored: boolean;
  /** Why: 'rotated' shows the old secret has stopped working. */
  reason: 'created' | 'rotated';
}

export interface CopiedMessage {
  type: 'copied';
  what: 'clientId' | 'clientSecret';
}

export interface StoredMessage {
  type: 'stored';
  message: string;
}
