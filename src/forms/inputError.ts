import * as vscode from 'vscode';
import { PortalError, type FieldError } from '../api';

/** Marks an error whose field names are already the form's own field ids (not the API's). */
export const FORM_INPUT = 'form-input';

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
