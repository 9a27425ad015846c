/**
 * What an invitations journal's lines may hold. A resume sends the invitations the journal names, so every value is
 * checked: an address is one e-mail of the portal's length, a mask and a group's level are the spec's numbers, a
 * group is named by its id, and nothing else is let in.
 */
import { z } from 'zod';
import { EMAIL, MAX_EMAIL } from '../../shared/memberRules';
import { beginFields, kindEntries, kindSchema, MAX_WORK, oneLine, seq } from '../journalSchema';
import type { InviteBefore, InviteOrigin, InviteRequest, InviteUnit } from './model';

const email = oneLine(MAX_EMAIL).regex(EMAIL);
const level = z.union([z.literal(1), z.literal(4), z.literal(16)]);
/** At most as many groups as an organisation could sensibly hold; each key an id. */
const groups = z
  .record(z.string().regex(/^[1-9]\d{0,14}$/), level)
  .refine((g) => Object.keys(g).length <= 10_000, { message: 'too many groups' });

const inviteEntry = kindEntries(
  z.strictObject({
    ...beginFields,
    kind: z.literal('invitations'),
    accountId: z.number().int().positive(),
    origin: z.enum(['invite', 'import']),
    work: z.array(z.strictObject({ seq, email, mask: level, groups })).max(MAX_WORK),
  }),
  z.strictObject({
    type: z.literal('intent'),
    seq,
    before: z.null(),
    requests: z.array(z.strictObject({ targetName: email })).max(1),
  }),
);

/** The invitations' journals, in their own folder (see run.ts). */
export const inviteJournal = kindSchema<InviteUnit, InviteBefore, InviteRequest, InviteOrigin>(
  'invitations',
  inviteEntry,
);
