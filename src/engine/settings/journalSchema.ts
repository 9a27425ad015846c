/**
 * What a settings journal's lines may hold. A resume sends the change the journal names, and an undo sends back its
 * `before`, so every value is checked: text is one line of a bounded length, ids are ids, and nothing else is let in.
 */
import { z } from 'zod';
import { beginFields, kindEntries, kindSchema, MAX_TEXT, MAX_WORK, oneLine, seq } from '../journalSchema';
import type { SettingsBefore, SettingsOrigin, SettingsRequest, SettingsUnit } from './model';

const id = z.number().int().positive();
const label = oneLine(1_000);
const clientId = oneLine(200).min(1);
const text = oneLine(MAX_TEXT);
const colour = oneLine(32);

const branding = z
  .strictObject({
    headerColor: colour,
    textColor: colour,
    logo: z.boolean(),
    background: z.boolean(),
    alignment: oneLine(32),
    backgroundPositionX: z.number(),
    backgroundPositionY: z.number(),
    hideBackgroundGradient: z.boolean(),
    hideLogoBackground: z.boolean(),
    hideGroupName: z.boolean(),
  })
  .partial();

const groupBody = z
  .strictObject({
    name: text,
    friendlyName: text,
    branding,
    disableChat: z.boolean(),
    disableWidgets: z.boolean(),
    disableComments: z.boolean(),
    disableAccordionWidgets: z.boolean(),
    components: z.array(oneLine(200)).max(200),
  })
  .partial();
const accountUpdate = z.strictObject({ friendlyName: text, name: text, locale: oneLine(64) }).partial();
const applicationFields = z.strictObject({ name: text, description: z.string().max(MAX_TEXT) }).partial();
const draft = z.strictObject({
  name: text,
  description: z.string().max(MAX_TEXT).optional(),
  platform: oneLine(64).optional(),
  deviceType: oneLine(64).optional(),
  deviceModel: text.optional(),
  deviceOs: text.optional(),
  appVersion: text.optional(),
  bundleId: text.optional(),
});

const change = z.union([
  z.strictObject({ resource: z.literal('group'), action: z.literal('update'), groupId: id, body: groupBody }),
  z.strictObject({ resource: z.literal('group'), action: z.literal('create'), body: groupBody }),
  z.strictObject({ resource: z.literal('group'), action: z.literal('delete'), groupId: id }),
  z.strictObject({ resource: z.literal('group'), action: z.literal('duplicate'), groupId: id, name: text }),
  z.strictObject({ resource: z.literal('organisation'), action: z.literal('update'), update: accountUpdate }),
  z.strictObject({
    resource: z.literal('application'),
    action: z.literal('update'),
    clientId,
    update: applicationFields,
  }),
  z.strictObject({ resource: z.literal('application'), action: z.literal('rotate-secret'), clientId }),
  z.strictObject({ resource: z.literal('application'), action: z.literal('create'), draft }),
  z.strictObject({ resource: z.literal('application'), action: z.literal('delete'), clientId }),
]);

const settingsEntry = kindEntries(
  z.strictObject({
    ...beginFields,
    kind: z.literal('settings'),
    // 0 for the signed-in user's own applications, which belong to no organisation.
    accountId: z.number().int().nonnegative(),
    origin: z.enum(['form', 'single', 'undo']),
    work: z.array(z.strictObject({ seq, label, change })).max(MAX_WORK),
  }),
  z.strictObject({
    type: z.literal('intent'),
    seq,
    before: z.union([groupBody, accountUpdate, applicationFields]).nullable(),
    requests: z.array(z.strictObject({ sent: change })).max(1),
  }),
);

/** The settings' journals, in their own folder (see run.ts). */
export const settingsJournal = kindSchema<SettingsUnit, SettingsBefore, SettingsRequest, SettingsOrigin>(
  'settings',
  settingsEntry,
);
