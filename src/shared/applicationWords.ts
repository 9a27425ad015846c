/**
 * What an application's platform and device type are called. The portal's values are codes (`OTHER`, `Other`):
 * each known one reads as one word in the user's language, wherever it is shown (the form, the tree, the document);
 * a value the portal added since reads as it came. No `vscode` import: the form's page uses these words too.
 */
import * as l10n from '@vscode/l10n';
import { APPLICATION_PLATFORMS, DEVICE_TYPES } from '../api/models/application';

type Platform = (typeof APPLICATION_PLATFORMS)[number];
type DeviceType = (typeof DEVICE_TYPES)[number];

/** Made on each call, so in the language configured by then (the page learns it from the host's first message). */
const platformLabels = (): Record<Platform, string> => ({
  IOS: 'iOS',
  ANDROID: 'Android',
  SYNC: l10n.t('Sync client'),
  LINUX: 'Linux',
  WINDOWS: 'Windows',
  OTHER: l10n.t('Other'),
});

const deviceTypeLabels = (): Record<DeviceType, string> => ({
  Phone: l10n.t('Phone'),
  Tablet: l10n.t('Tablet'),
  Watch: l10n.t('Watch'),
  Browser: l10n.t('Browser'),
  Other: l10n.t('Other'),
});

function labelOf<K extends string>(labels: Record<K, string>, value: string): string {
  return Object.prototype.hasOwnProperty.call(labels, value) ? labels[value as K] : value;
}

export function platformWord(platform: string): string {
  return labelOf(platformLabels(), platform);
}

export function deviceTypeWord(deviceType: string): string {
  return labelOf(deviceTypeLabels(), deviceType);
}
