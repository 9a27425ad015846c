/**
 * What a snapshot file may hold, value by value. A snapshot is a file in a folder the user chose, perhaps shared or
 * synced, and re-creating one sends what it says: so every value is checked as the portal would take it, before a
 * plan is made of it.
 */
import { z } from 'zod';
import {
  MAX_EMAIL,
  MAX_JOB_TITLE,
  MAX_NAME,
  MAX_TAG_LENGTH,
  MAX_TAGS_PER_MEMBER,
  USERNAME,
  EMAIL,
} from '../../shared/memberRules';
import { MAX_TEXT, oneLine } from '../journalSchema';

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
  name: oneLine(MAX_NAME).min(1),
  email: oneLine(MAX_EMAIL).regex(EMAIL),
  jobTitle: oneLine(MAX_JOB_TITLE).nullable(),
  telephone: oneLine(MAX_TEXT).nullable(),
  address: z.string().max(MAX_TEXT).nullable(),
  organisation: oneLine(MAX_TEXT).nullable(),
  enabled: z.boolean(),
  accountPermission: z.union([z.literal(1), z.literal(4), z.literal(16)]).nullable(),
  tags: z.array(oneLine(MAX_TAG_LENGTH).min(1)).max(MAX_TAGS_PER_MEMBER),
  groups: z
    .array(
      z.strictObject({
        id: z.number().int().positive(),
        name: oneLine(MAX_NAME).min(1),
        level: z.union([z.literal(1), z.literal(4), z.literal(16)]),
      }),
    )
    .max(10_000),
});
