/**
 * What an upload journal's lines may hold. A resume uploads the local files the journal names to the portal the
 * journal names, so a journal edited by someone else could otherwise send any file of the user's anywhere: every
 * path must be absolute and stay what a plan writes, every id a positive number, every line of the run's own work.
 * Each file carries the identity its plan pinned and the journal the root its files were planned from: a resume
 * holds every file to both (see run.ts). A journal from before files were pinned fails this schema, so it is never
 * offered for resume: nothing it names is sent unpinned.
 */
import { isAbsolute } from 'node:path';
import { z } from 'zod';
import { APPLY_ID, endEntry, kindSchema, MAX_TEXT, MAX_WORK, oneLine, outcomeEntry, seq, time } from '../journalSchema';
import type { UploadBefore, UploadBegin, UploadRequest, UploadUnit } from './kind';

const id = z.number().int().positive();
const relativePath = oneLine(4_096)
  .min(1)
  .refine((p) => !p.startsWith('/') && !p.split('/').some((part) => part === '' || part === '.' || part === '..'), {
    message: 'not a path below the target folder',
  });
const localPath = oneLine(4_096).refine(isAbsolute, { message: 'not an absolute local path' });
const count = z.number().int().nonnegative();

const identity = z.strictObject({ dev: count, ino: count, size: count, mtimeMs: z.number().nonnegative() });

const unit = z
  .strictObject({
    seq,
    path: relativePath,
    localPath,
    size: count,
    identity,
    contentType: oneLine(255),
    replaceId: id.optional(),
  })
  .refine((u) => u.identity.size === u.size, { message: 'the size sent is not the size pinned' });

const uploadEntry = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('begin'),
    applyId: z.string().regex(APPLY_ID),
    kind: z.literal('uploads'),
    accountId: id,
    portalId: z.string().min(1).max(200),
    origin: z.literal('upload'),
    startedAt: time,
    target: z.strictObject({
      portalId: z.string().min(1).max(200),
      accountId: id,
      groupId: id,
      folderId: z.number().int().nonnegative(),
    }),
    root: localPath,
    targetName: oneLine(MAX_TEXT),
    title: oneLine(MAX_TEXT).optional(),
    undoOf: z.string().regex(APPLY_ID).optional(),
    work: z.array(unit).max(MAX_WORK),
  }),
  z.strictObject({
    type: z.literal('intent'),
    seq,
    before: z
      .strictObject({ lastModified: time.nullable(), versions: z.number().int().nonnegative().nullable() })
      .nullable(),
    requests: z.array(z.strictObject({ uploadId: oneLine(200).min(1) })).max(16),
    snapshot: z.string().max(4_096).optional(),
  }),
  outcomeEntry,
  endEntry,
]);

/** The uploads' journals, in their own folder (see run.ts). */
export const uploadJournal = kindSchema<UploadUnit, UploadBefore, UploadRequest, 'upload', UploadBegin>(
  'uploads',
  uploadEntry,
);
