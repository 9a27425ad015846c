/**
 * What a members journal's lines may hold, value by value: usernames, e-mails, permission levels and lengths as the
 * portal takes them. A resume sends what a journal says, and an undo its `before`, so nothing else is let in.
 */
import { z } from 'zod';
import { MAX_NAME } from '../../shared/memberRules';
import {
  beginFields,
  jsonLine,
  kindEntries,
  kindSchema,
  MAX_TEXT,
  MAX_WORK,
  oneLine,
  seq,
  text,
  time,
} from '../journalSchema';
import {
  emailValue as storedEmail,
  jobTitleValue as jobTitle,
  levelValue as accountPermission,
  nameValue as name,
  tagsValue,
} from './fieldSchemas';
import type { JournalEntry, JournalOrigin, JournalRequest, JournalWork, MemberBefore } from './model';

// Usernames as the portal may hold them (older ones need not follow today's rule), but never a path.
const username = oneLine(254)
  .min(1)
  .regex(/^[^/\\\s]+$/);
const tags = tagsValue();
const groupId = z.string().regex(/^[1-9]\d{0,15}$/);
const groupLevel = z.union([z.literal(0), z.literal(1), z.literal(4), z.literal(16)]);
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

/** The group fields a create and an update take alike (GroupAssignments). */
const groupAssignments = {
  assignToAllGroupsWithRights: storedPermission.optional(),
  assignToAllGroupsWithAdmin: z.boolean().optional(),
  assignGroupsRights: groupNumbers.optional(),
  assignGroupsAdmin: groupIds.optional(),
};

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
  assignGroups: groupLevels.optional(),
  ...groupAssignments,
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
  ...groupAssignments,
  assignToNewGroupsRights: storedPermission.optional(),
  assignToNewGroupsAdmin: z.boolean().optional(),
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

/** The organisation's name as the run knew it: a history read after a reload names the organisation by it. */
const MAX_ACCOUNT_LABEL = 200;

const memberEntry = kindEntries(
  z.strictObject({
    ...beginFields,
    accountId: z.number().int().positive(),
    kind: z.literal('members').optional(),
    origin: z.enum(['file', 'undo', 'retry', 'recreate', 'access', 'bulk', 'single', 'form']),
    accountLabel: oneLine(MAX_ACCOUNT_LABEL).optional(),
    work: z.array(work).max(MAX_WORK),
  }),
  z.strictObject({
    type: z.literal('intent'),
    seq,
    before: memberBefore.nullable(),
    requests,
    snapshot: z.string().max(4_096).optional(),
  }),
);

/** The members' journals; those from before there were kinds name none, and are members'. */
export const memberJournal = kindSchema<JournalWork, MemberBefore, JournalRequest, JournalOrigin>(
  'members',
  memberEntry,
  { unnamed: true },
);

/** One line as an entry; undefined for a torn last line; throws 'invalid-input' for any other bad line. */
export function checkJournalLine(line: string, last: boolean): JournalEntry | undefined {
  const json = jsonLine(line, last);
  return json === undefined ? undefined : memberJournal.parse(json);
}
