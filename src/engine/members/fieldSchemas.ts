/**
 * A member's values as every file the engine reads back checks them (a journal, a snapshot): one rule per field, so a
 * value one file lets in is never refused by another, and a limit changes in one place.
 */
import { z } from 'zod';
import { MAX_EMAIL, MAX_JOB_TITLE, MAX_NAME, MAX_TAG_LENGTH, MAX_TAGS_PER_MEMBER } from '../../shared/memberRules';
import { oneLine } from '../journalSchema';

/** A name as the portal holds it: a member's, or a group's unique name. */
export const nameValue = oneLine(MAX_NAME);
/** A length and one line, not today's address rule: what the portal held may be untidy, and an undo sends it back. */
export const emailValue = oneLine(MAX_EMAIL);
export const jobTitleValue = oneLine(MAX_JOB_TITLE);
export const tagValue = oneLine(MAX_TAG_LENGTH);
export const tagsValue = (tag: z.ZodString = tagValue) => z.array(tag).max(MAX_TAGS_PER_MEMBER);
/** A group permission level the API sends and takes: Basic, Standard, Administrator. */
export const levelValue = z.union([z.literal(1), z.literal(4), z.literal(16)]);
