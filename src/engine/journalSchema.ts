/**
 * What every journal line may hold, whatever its kind, and the pieces each kind's schema is made of. A journal is a
 * file anyone with access to the user's profile can edit, and a resume sends what it says; so every line is checked
 * before it counts: its shape and each value's range by its kind's schema (see JournalSchema in job.ts), and here that
 * intents and outcomes refer to the run's own planned work. The `applyId` names the report file, so it may only be
 * what Journal.create makes.
 */
import { z } from 'zod';
import { PortalError } from '../api/index';
import type { JournalEntryOf, JournalRecordOf, JournalSchema, Unit } from './job';

export const APPLY_ID = /^\d{14}-[0-9a-f]{8}$/;
export const MAX_TEXT = 2_000;
export const MAX_WORK = 100_000;

/** One line of text: no control characters (a portal's values are not always tidy, but never hold those). */
export const oneLine = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^\P{Cc}*$/u);
export const text = z.string().max(MAX_TEXT);
export const time = z.number().int().nonnegative();
export const seq = z.number().int().nonnegative().max(MAX_WORK);

/** The fields every kind's first line holds alike: the run's id, where and when it started, and how it is named. */
export const beginFields = {
  type: z.literal('begin'),
  applyId: z.string().regex(APPLY_ID),
  portalId: z.string().min(1).max(200),
  startedAt: time,
  title: oneLine(MAX_TEXT).optional(),
  undoOf: z.string().regex(APPLY_ID).optional(),
};

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

/** A kind's entries: its own first line and intents, then the outcomes and the end every kind writes alike. */
export function kindEntries<B extends z.ZodObject, I extends z.ZodObject>(begin: B, intent: I) {
  return z.discriminatedUnion('type', [begin, intent, outcomeEntry, endEntry]);
}

export function invalidJournal(file: string, why: string): PortalError {
  return new PortalError({
    kind: 'invalid-input',
    endpoint: '',
    message: `The journal ${file} was changed outside the extension and is not resumed: ${why}`,
  });
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

/**
 * A kind's journal schema from its schema of entries, which must parse to the kind's own entry types (so a field the
 * kind adds and the schema forgets does not compile): `kind` is what its first line names; `unnamed` takes journals
 * from before first lines named a kind.
 */
export function kindSchema<U extends Unit, B, R, O extends string = string, X extends object = object>(
  kind: string,
  entry: z.ZodType<JournalEntryOf<U, B, R, O, X>>,
  options: { readonly unnamed?: boolean } = {},
): JournalSchema<U, B, R, O, X> {
  return { kind, ...options, parse: (json) => checkEntry(entry, json) };
}

/** A parsed line checked against a kind's schema of entries. */
export function checkEntry<E>(schema: z.ZodType<E>, json: unknown): E {
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw invalidJournal('', z.prettifyError(parsed.error));
  return parsed.data;
}

/** The lines agree with each other: unique work, intents and outcomes of that work only, the file named by its id. */
export function checkJournalRecord(
  record: Omit<JournalRecordOf<Unit, unknown, unknown>, 'unfinished'>,
  file: string,
): void {
  const seqs = new Set(record.begin.work.map((w) => w.seq));
  if (seqs.size !== record.begin.work.length) throw invalidJournal(file, 'two members share a sequence number.');
  for (const s of [...record.intents.keys(), ...record.outcomes.keys()])
    if (!seqs.has(s)) throw invalidJournal(file, `sequence ${s} is not in the run's planned work.`);
  const base = file.split(/[\\/]/).at(-1);
  if (base !== `${record.begin.applyId}.jsonl`) throw invalidJournal(file, 'its id is not its file name.');
}
