import { isDeepStrictEqual } from 'node:util';
import * as vscode from 'vscode';
import { PortalError, isPortalError, type FieldError } from '../api';

/** Marks an error whose field names are already the form's own field ids (not the API's). */
const FORM_INPUT = 'form-input';
/** The portal answered a save with success but still holds the old values (see notAppliedError). */
const NOT_APPLIED = 'not-applied';

/** Whether an error's field names are the form's own field ids. */
export function namesFormFields(err: unknown): boolean {
  return isPortalError(err) && (err.code === FORM_INPUT || err.code === NOT_APPLIED);
}

/**
 * A problem with what the user typed, found before anything is sent. It is a PortalError of kind
 * 'invalid-input' so the form shows it exactly like the portal's own field errors.
 */
export function inputError(fieldErrors: FieldError[]): PortalError {
  return new PortalError({
    kind: 'invalid-input',
    code: FORM_INPUT,
    endpoint: '',
    message: vscode.l10n.t('Check the highlighted fields.'),
    fieldErrors,
  });
}

/** One field a save sent, the value sent, and the value the portal answered with (or now holds). */
export interface SentField {
  /** The form's field id. */
  readonly field: string;
  /** The field's name as the form shows it. */
  readonly label: string;
  readonly sent: unknown;
  readonly now: unknown;
}

/**
 * The fields whose answer is not what was sent. Values are compared deeply; callers give lists in a stable order
 * (tags sorted) where the portal's order carries no meaning.
 */
function unapplied(fields: readonly SentField[]): SentField[] {
  return fields.filter((f) => !isDeepStrictEqual(f.sent, f.now));
}

/**
 * A portal that answers a save with success and the old values has not saved anything: the form must not say
 * "Saved". The error names the fields, and the form keeps the user's input (as for any failed save).
 */
function notAppliedError(fields: readonly SentField[]): PortalError {
  return new PortalError({
    kind: 'server',
    code: NOT_APPLIED,
    endpoint: '',
    message: vscode.l10n.t(
      'The portal accepted the request but did not apply {0}. Your input is kept: check the portal, then save again.',
      fields.map((f) => f.label).join(', '),
    ),
    fieldErrors: fields.map((f) => ({
      field: f.field,
      message: vscode.l10n.t('The portal did not apply this change.'),
    })),
  });
}

/** Throws notAppliedError when any field's answer differs from what was sent. */
export function checkApplied(fields: readonly SentField[]): void {
  const missed = unapplied(fields);
  if (missed.length > 0) throw notAppliedError(missed);
}
