/**
 * Every question sign-in and sign-out ask, on the Ui. `undefined` means the user withheld the answer.
 */
import type { Ui } from '../ui/ui';
import { baseUrlProblem } from './baseUrl';

const notEmpty = (what: string) => (v: string): string | undefined => (v.trim() ? undefined : `Enter the ${what}.`);

export function askBaseUrl(ui: Ui): Promise<string | undefined> {
  return ui.input({
    id: 'signIn.baseUrl',
    title: 'Sign in to a portal (1/4)',
    prompt: 'Base address of the portal API',
    placeHolder: 'https://portal.example.com',
    value: 'https://',
    validate: baseUrlProblem,
  });
}

export function askService(ui: Ui, initial: string): Promise<string | undefined> {
  return ui.input({
    id: 'signIn.service',
    title: 'Sign in to a portal (2/4)',
    prompt: 'Service name (the password sign-in uses the client id "<service>-mobile")',
    value: initial,
    validate: (v) => (/^[a-z0-9][a-z0-9-]*$/i.test(v.trim()) ? undefined : 'Letters, digits and dashes only.'),
  });
}

export function askUsername(ui: Ui, portalLabel: string, initial: string | undefined): Promise<string | undefined> {
  return ui.input({
    id: 'signIn.username',
    title: `Sign in to ${portalLabel} (3/4)`,
    prompt: 'Username or e-mail',
    ...(initial !== undefined ? { value: initial } : {}),
    validate: notEmpty('username'),
  });
}

export function askPassword(ui: Ui, username: string, portalLabel: string): Promise<string | undefined> {
  return ui.input({
    id: 'signIn.password',
    title: `Sign in to ${portalLabel} (4/4)`,
    prompt: `Password for ${username}. It is used once to create an application for this machine, then forgotten.`,
    password: true,
    validate: notEmpty('password'),
  });
}

export function askCode(ui: Ui, portalLabel: string, previousWasWrong: boolean): Promise<string | undefined> {
  return ui.input({
    id: 'signIn.code',
    title: `Two-factor code for ${portalLabel}`,
    prompt: previousWasWrong ? 'That code was not accepted. Enter the current code.' : 'This account uses two-factor authentication. Enter the current code.',
    password: true,
    validate: (v) => (/^\s*\d{4,10}\s*$/.test(v) ? undefined : 'Digits only.'),
  });
}

export function askClientId(ui: Ui, portalLabel: string): Promise<string | undefined> {
  return ui.input({
    id: 'signIn.clientId',
    title: `Application credentials for ${portalLabel} (1/2)`,
    prompt: 'Client id of an existing application',
    validate: notEmpty('client id'),
  });
}

export function askClientSecret(ui: Ui, portalLabel: string): Promise<string | undefined> {
  return ui.input({
    id: 'signIn.clientSecret',
    title: `Application credentials for ${portalLabel} (2/2)`,
    prompt: 'Client secret of that application',
    password: true,
    validate: notEmpty('client secret'),
  });
}

/** Shows a failed sign-in; true when the user wants to try again. */
export async function askRetry(ui: Ui, message: string): Promise<boolean> {
  return (await ui.choose({ id: 'signIn.failed', severity: 'error', modal: false, message, actions: [{ id: 'retry', label: 'Try again' }] })) === 'retry';
}

export type SignOutChoice = 'signOut' | 'signOutAndDelete';

/** Confirms sign-out; offers deleting the application only when this machine created it. */
export function askSignOut(ui: Ui, portalLabel: string, canDeleteApplication: boolean): Promise<SignOutChoice | undefined> {
  return ui.choose<SignOutChoice>({
    id: 'signOut.choice',
    severity: 'warning',
    modal: true,
    message: `Sign out of ${portalLabel}?`,
    detail: canDeleteApplication
      ? 'The client id and secret this machine uses will be removed from secret storage. You can also delete the application on the portal, so those credentials stop working everywhere.'
      : 'The client id and secret will be removed from secret storage. The application itself stays on the portal.',
    actions: [
      { id: 'signOut', label: 'Sign out' },
      ...(canDeleteApplication ? [{ id: 'signOutAndDelete' as const, label: 'Sign out and delete the application' }] : []),
    ],
  });
}
