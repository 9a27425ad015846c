import * as vscode from 'vscode';
import { parseBaseUrl } from '../api';
import { errorMessage } from '../shared/errors';

/** Input-box validation for a portal's base address; the rule itself lives in src/api's transport. */
export function baseUrlProblem(value: string): string | undefined {
  const trimmed = value.trim();
  if (trimmed === '' || trimmed === 'https://') return vscode.l10n.t('Enter the base address of the portal API.');
  try {
    parseBaseUrl(trimmed);
    return undefined;
  } catch (error) {
    return errorMessage(error);
  }
}
