/**
 * What a save journal's lines may hold. Nothing resumes a save, but the history reads these files and a run reads its
 * staged bytes by the name its unit gives, so every value is checked: the staged file is one name inside the staged
 * folder, ids are ids, the digest a SHA-256, the text one bounded line.
 */
import { z } from 'zod';
import { beginFields, kindEntries, kindSchema, MAX_TEXT, oneLine, seq, time } from '../journalSchema';
import type { SaveBefore, SaveBegin, SaveOrigin, SaveRequest, SaveUnit } from './kind';

const id = z.number().int().positive();
const count = z.number().int().nonnegative();
const version = z.strictObject({ lastModified: time.nullable(), versions: count.nullable() });

const unit = z
  .strictObject({
    seq,
    recordId: id,
    folderId: count,
    name: oneLine(255).min(1),
    contentType: oneLine(255),
    size: count,
    digest: z.string().regex(/^[A-Za-z0-9+/]{43}=$/),
    staged: z.string().regex(/^[0-9a-f]{32}\.bin$/),
    identity: z.strictObject({ dev: count, ino: count, size: count, mtimeMs: z.number().nonnegative() }),
  })
  .refine((u) => u.identity.size === u.size, { message: 'the size sent is not the size staged' });

const saveEntry = kindEntries(
  z.strictObject({
    ...beginFields,
    kind: z.literal('saves'),
    accountId: id,
    origin: z.literal('save'),
    groupId: id,
    where: oneLine(MAX_TEXT),
    // One save is one version of one record.
    work: z.array(unit).max(1),
  }),
  z.strictObject({
    type: z.literal('intent'),
    seq,
    before: version.nullable(),
    requests: z.array(z.strictObject({ uploadId: oneLine(200).min(1) })).max(1),
    snapshot: z.string().max(4_096).optional(),
  }),
);

/** The saves' journals, in their own folder (see run.ts). */
export const saveJournal = kindSchema<SaveUnit, SaveBefore, SaveRequest, SaveOrigin, SaveBegin>('saves', saveEntry);
