/**
 * What a journal line may hold, value by value. A journal is a file anyone with access to the user's profile can
 * edit, and a resume sends what it says; so every line is checked before it counts: the shape, each value's range
 * (usernames, e-mails, permission levels, lengths as the portal takes them), and that intents and outcomes refer to
 * the run's own planned work. The `applyId` names the report file, so it may only be what Journal.create makes.
 */
import { z } from 'zod';
import { PortalError } from '../api/index';
import { MAX_EMAIL, MAX_JOB_TITLE, MAX_NAME, MAX_TAG_LENGTH, MAX_TAGS_PER_MEMBER } from '../shared/memberRules';
import type { JournalEntry, JournalRecord } from './members/model';

export const APPLY_ID = /^\d{14}-[0-9a-f]{8}$/;
export const MAX_TEXT = 2_000;
export const MAX_WORK = 100_000;

/** One line of text: no control characters (a portal's values are not always tidy, but never hold those). */
export const oneLine = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^\P{Cc}*$/u);
// Usernames as the portal may hold them (older ones need not follow today's rule), but never a path.
const username = oneLine(254)
  .min(1)
  .regex(/^[^/\\\s]+$/);
// An undo sends back what the portal held, which may be untidy: a length and one line, not today's rule.
const storedEmail = oneLine(MAX_EMAIL);
const name = oneLine(MAX_NAME);
const jobTitle = oneLine(MAX_JOB_TITLE);
export const text = z.string().max(MAX_TEXT);
const tags = z.array(oneLine(MAX_TAG_LENGTH)).max(MAX_TAGS_PER_MEMBER);
export const time = z.number().int().nonnegative();
export const seq = z.number().int().nonnegative().max(MAX_WORK);
const groupId = z.string().regex(/^[1-9]\d{0,15}$/);
const groupLevel = z.union([z.literal(0), z.literal(1), z.literal(4), z.literal(16)]);
const accountPermission = z.union([z.literal(1), z.literal(4), z.literal(16)]);
const storedPermission = z.number().int().nonnegative().max(0xffff);
const groupLevels = z.record(groupId, groupLevel);
const groupNumbers = z.record(groupId, z.number().int().nonnegative());
const groupIds = z.array(z.number().int().positive()).max(MAX_WORK);

const memberBefore = z.strictObject({
  username,
  name,
  email: storedEmail,
  jobTitle: jobTitle.nullable(),
  enabled: z.boolean(),
  locked: z.boolean(),
  accountPermission: storedPermission.nullable(),
  tags,
  twoFactor: z.boolean(),
  lastModified: time.nullable(),
  groups: groupLevels,
});

const memberTarget = z.strictObject({
  fields: z.strictObject({
    name: name.optional(),
    email: storedEmail.optional(),
    jobTitle: jobTitle.nullable().optional(),
    enabled: z.boolean().optional(),
    locked: z.boolean().optional(),
    accountPermission: accountPermission.optional(),
    tags: tags.optional(),
    twoFactor: z.literal(false).optional(),
  }),
  groups: groupLevels,
});

// A journal never carries a password: a new member gets an activation e-mail.
const v3Create = z.strictObject({
  username,
  name: name.optional(),
  email: storedEmail.optional(),
  enabled: z.boolean().optional(),
  tags: tags.optional(),
  rights: accountPermission.optional(),
  phone: oneLine(MAX_TEXT).optional(),
  realName: name.optional(),
  admin: z.boolean().optional(),
  assignToNewGroupsPermission: groupLevel.optional(),
  assignToAllGroupsWithRights: storedPermission.optional(),
  assignToAllGroupsWithAdmin: z.boolean().optional(),
  assignGroups: groupLevels.optional(),
  assignGroupsRights: groupNumbers.optional(),
  assignGroupsAdmin: groupIds.optional(),
});

const v3Update = z.strictObject({
  tags: tags.optional(),
  permission: accountPermission.optional(),
  rights: accountPermission.optional(),
  enabled: z.boolean().optional(),
  lock: z.boolean().optional(),
  disableTwoFactorAuthentication: z.literal(true).optional(),
  assignmentNotification: z.boolean().optional(),
  activation: z.strictObject({ date: time.optional(), message: text.optional() }).optional(),
  assignToAllGroupsWithRights: storedPermission.optional(),
  assignToAllGroupsWithAdmin: z.boolean().optional(),
  assignToNewGroupsRights: storedPermission.optional(),
  assignToNewGroupsAdmin: z.boolean().optional(),
  assignGroupsRights: groupNumbers.optional(),
  assignGroupsAdmin: groupIds.optional(),
  removeGroups: groupIds.optional(),
});

const v2Body = z.strictObject({
  user: z.strictObject({
    username: username.optional(),
    name: name.optional(),
    email: storedEmail.optional(),
    address: text.optional(),
    telephone: oneLine(MAX_TEXT).optional(),
    organisation: oneLine(MAX_TEXT).optional(),
    jobTitle: jobTitle.optional(),
    enabled: z.boolean().optional(),
  }),
  accountPermission: accountPermission.optional(),
  groups: z.record(z.string().max(MAX_NAME), groupLevel).optional(),
  activationType: z.enum(['now', 'custom']).optional(),
  activationDate: time.optional(),
  activationMessage: text.optional(),
});

const request = z.discriminatedUnion('method', [
  z.strictObject({ method: z.literal('v3.create'), body: v3Create }),
  z.strictObject({ method: z.literal('v2.create'), body: v2Body }),
  z.strictObject({ method: z.literal('v3.update'), body: v3Update }),
  z.strictObject({ method: z.literal('v2.update'), body: v2Body }),
  z.strictObject({ method: z.literal('v3.delete') }),
]);
const requests = z.array(request).max(8);

const work = z.strictObject({
  seq,
  username,
  row: z.number().int().positive().optional(),
  action: z.enum(['create', 'update', 'disable', 'remove', 'restore']),
  changeIds: z.array(text).max(1_000),
  before: memberBefore.nullable(),
  after: memberTarget.nullable(),
  requests,
  groupNames: z.record(groupId, oneLine(MAX_TEXT)),
  permanent: z.boolean(),
});

/** The lines every kind writes alike. */
export const outcomeEntry = z.strictObject({
  type: z.literal('outcome'),
  seq,
  result: z.enum(['done', 'failed', 'skipped']),
  message: text,
});
export const endEntry = z.strictObject({
  type: z.literal('end'),
  finishedAt: time,
  cancelled: z.boolean(),
  discarded: z.boolean().optional(),
});

export const memberEntry = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('begin'),
    applyId: z.string().regex(APPLY_ID),
    accountId: z.number().int().positive(),
    portalId: z.string().min(1).max(200),
    kind: z.literal('members').optional(),
    origin: z.enum(['file', 'undo', 'retry', 'recreate', 'access', 'bulk', 'single', 'form']),
    startedAt: time,
    title: oneLine(MAX_TEXT).optional(),
    undoOf: z.string().regex(APPLY_ID).optional(),
    work: z.array(work).max(MAX_WORK),
  }),
  z.strictObject({
    type: z.literal('intent'),
    seq,
    before: memberBefore.nullable(),
    requests,
    snapshot: z.string().max(4_096).optional(),
  }),
  outcomeEntry,
  endEntry,
]);

export function invalidJournal(file: string, why: string): PortalError {
  return new PortalError({
    kind: 'invalid-input',
    endpoint: '',
    message: `The journal ${file} was changed outside the extension and is not resumed: ${why}`,
  });
}

/** One line as an entry; undefined for a torn last line; throws 'invalid-input' for any other bad line. */
export function checkJournalLine(line: string, last: boolean): JournalEntry | undefined {
  const json = jsonLine(line, last);
  return json === undefined ? undefined : checkEntry(memberEntry, json);
}

/** A line's JSON; undefined for a torn last line (a crash mid-write); throws for any other line that is not JSON. */
export function jsonLine(line: string, last: boolean): unknown {
  try {
    return JSON.parse(line) as unknown;
  } catch {
    if (last) return undefined;
    throw invalidJournal('', 'a line is not JSON.');
  }
}

/** A parsed line checked against a kind's schema of entries. */
export function checkEntry<E>(schema: z.ZodType, json: unknown): E {
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw invalidJournal('', z.prettifyError(parsed.error));
  return parsed.data as E;
}

/** The lines agree with each other: unique work, intents and outcomes of that work only, the file named by its id. */
export function checkJournalRecord(record: Omit<JournalRecord, 'unfinished'>, file: string): void {
  const seqs = new Set(record.begin.work.map((w) => w.seq));
  if (seqs.size !== record.begin.work.length) throw invalidJournal(file, 'two members share a sequence number.');
  for (const s of [...record.intents.keys(), ...record.outcomes.keys()])
    if (!seqs.has(s)) throw invalidJournal(file, `sequence ${s} is not in the run's planned work.`);
  const base = file.split(/[\\/]/).at(-1);
  if (base !== `${record.begin.applyId}.jsonl`) throw invalidJournal(file, 'its id is not its file name.');
}
