/**
 * What went wrong, in words, and whether it was only the user (or the code on their behalf) stopping a task. One
 * definition for the views, commands, forms and documents. Pure.
 */
import { isPortalError } from '../api/errors';

/** The text of anything thrown (PortalError messages are already redacted): the API layer's one definition. */
export { errorMessage } from '../api/errors';

/** The user withheld an answer (Escape, Cancel): the command ends quietly. */
export class Cancelled extends Error {
  constructor(message = 'Cancelled.') {
    super(message);
    this.name = 'Cancelled';
  }
}

/**
 * A task that stopped because someone asked it to: a withheld answer, a cancelled progress (the API's
 * 'cancelled' error), or an aborted stream (undici and Node streams throw AbortError).
 */
export function isCancellation(error: unknown): boolean {
  return (
    error instanceof Cancelled ||
    isPortalError(error, 'cancelled') ||
    (error instanceof Error && error.name === 'AbortError')
  );
}
