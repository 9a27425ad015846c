/**
 * What a snapshot file may hold, value by value. A snapshot is a file in a folder the user chose, perhaps shared or
 * synced, and re-creating one sends what it says: so every value is checked as the portal would take it, before a
 * plan is made of it.
 */
import { z } from 'zod';
import { USERNAME, EMAIL } from '../../shared/memberRules';
import { MAX_TEXT, oneLine } from '../journalSchema';
import { emailValue, jobTitleValue, levelValue, nameValue, tagsValue, tagValue } from './fieldSchemas';

export const snapshotSchema = z.strictObject({
  version: z.union([z.literal(1), z.literal(2)]),
  takenAt: z.number().int().nonnegative(),
  portal: z
    .string()
    .max(300)
    .refine((s) => {
      try {
        return new URL(s).origin === s;
      } catch {
        return false;
      }
    }, 'a portal origin')
    .optional(),
  accountId: z.number().int().positive(),
  username: z.string().regex(USERNAME),
  name: nameValue.min(1),
  email: emailValue.regex(EMAIL),
  jobTitle: jobTitleValue.nullable(),
  telephone: oneLine(MAX_TEXT).nullable(),
  address: z.string().max(MAX_TEXT).nullable(),
  organisation: oneLine(MAX_TEXT).nullable(),
  enabled: z.boolean(),
  accountPermission: levelValue.nullable(),
  tags: tagsValue(tagValue.min(1)),
  groups: z
    .array(
      z.strictObject({
        id: z.number().int().positive(),
        name: nameValue.min(1),
        level: levelValue,
      }),
    )
    .max(10_000),
});
