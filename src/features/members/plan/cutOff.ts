/**
 * A reload closes the portal clients while an apply still has members queued for the request budget; their
 * requests fail with "The portal connection was closed." and the journal records them as failed, so a plain resume
 * would leave them out ("lost"). For a resume such a failure is no result at all: this copy of the record forgets
 * those outcomes, and the resume then reads each of those members from the portal first (sending only what is not
 * there yet), as it does for any member started but not confirmed.
 */
import type { JournalRecord } from './core/model';

/** What src/api says when a request meets a closed client (pipeline.ts, scheduler.ts). */
const CLOSED = 'The portal connection was closed.';

export function reopenCutOff(record: JournalRecord): JournalRecord {
  const outcomes = new Map(
    [...record.outcomes].filter(([, o]) => !(o.result === 'failed' && o.message.startsWith(CLOSED))),
  );
  return outcomes.size === record.outcomes.size ? record : { ...record, outcomes, unfinished: true };
}
