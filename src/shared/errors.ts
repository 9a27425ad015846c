/**
 * What went wrong, in words, and whether it was only the user (or the code on their behalf) stopping a task. One
 * definition for the views, commands, forms and documents. Pure.
 */
import { isPortalError } from '../api/errors';

/** The text of anything thrown: an Error's message (PortalError messages are already redacted), else the value. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  return String(error);
}

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
  return error instanceof Cancelled || isPortalError(error, 'cancelled') || (error instanceof Error && error.name === 'AbortError');
}
