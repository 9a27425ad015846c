import { PortalError } from '../api';
import { errorMessage } from '../shared/errors';
import type { PortalEntry } from './portalEntry';

/** Turns a failed sign-in into one sentence that says what to do next. */
export function describeSignInError(error: unknown, entry: PortalEntry): string {
  if (!(error instanceof PortalError)) return `Signing in to ${entry.label} failed: ${errorMessage(error)}`;
  switch (error.kind) {
    case 'auth':
    case 'signed-out':
      return `${entry.label} did not accept those credentials${error.serverMessage ? ` (${error.serverMessage})` : ''}. Check them and try again.`;
    case 'two-factor-invalid':
      return `${entry.label} did not accept the two-factor code. Use the current code from your authenticator and try again.`;
    case 'network':
      return `Could not reach ${entry.baseUrl}. ${error.message} Check the address, your network and the proxy setting (http.proxy).`;
    case 'tls':
      return `The secure connection to ${entry.baseUrl} failed: ${error.message} Check the address, or the certificate settings (http.proxyStrictSSL).`;
    case 'invalid-response':
      return `${entry.baseUrl} does not answer like a portal API (${error.message}). Check the base address: it is the API's root, without /v3.`;
    case 'timeout':
      return `${entry.baseUrl} did not answer in time. Try again, or check the address and your network.`;
    default:
      return `Signing in to ${entry.label} failed: ${error.message}`;
  }
}
