import * as vscode from 'vscode';
import { PortalError } from '../api';
import { errorMessage } from '../shared/errors';
import type { PortalEntry } from './portalEntry';

/** Turns a failed sign-in into one sentence that says what to do next. */
export function describeSignInError(error: unknown, entry: PortalEntry): string {
  if (!(error instanceof PortalError))
    return vscode.l10n.t('Signing in to {0} failed: {1}', entry.label, errorMessage(error));
  switch (error.kind) {
    case 'auth':
    case 'signed-out':
      return error.serverMessage
        ? vscode.l10n.t(
            '{0} did not accept those credentials ({1}). Check them and try again.',
            entry.label,
            error.serverMessage,
          )
        : vscode.l10n.t('{0} did not accept those credentials. Check them and try again.', entry.label);
    case 'two-factor-invalid':
      return vscode.l10n.t(
        '{0} did not accept the two-factor code. Use the current code from your authenticator and try again.',
        entry.label,
      );
    case 'network':
      return vscode.l10n.t(
        'Could not reach {0}. {1} Check the address, your network and the proxy setting (http.proxy).',
        entry.baseUrl,
        error.message,
      );
    case 'tls':
      return vscode.l10n.t(
        'The secure connection to {0} failed: {1} Check the address, or the certificate settings (http.proxyStrictSSL).',
        entry.baseUrl,
        error.message,
      );
    case 'invalid-response':
      return vscode.l10n.t(
        "{0} does not answer like a portal API ({1}). Check the base address: it is the API's root, without /v3.",
        entry.baseUrl,
        error.message,
      );
    case 'timeout':
      return vscode.l10n.t(
        '{0} did not answer in time. Try again, or check the address and your network.',
        entry.baseUrl,
      );
    default:
      return vscode.l10n.t('Signing in to {0} failed: {1}', entry.label, error.message);
  }
}
