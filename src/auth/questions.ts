/**
 * Every question sign-in and sign-out ask, on the Ui. `undefined` means the user withheld the answer.
 */
import * as vscode from 'vscode';
import type { Ui } from '../ui/ui';
import { baseUrlProblem } from './baseUrl';
import { DEFAULT_SERVICE } from './portalEntry';

/** A check that the answer is not blank, saying what to enter. */
const notEmpty =
  (problem: string) =>
  (v: string): string | undefined =>
    v.trim() ? undefined : problem;

/** Where a new portal is: its base address, and its service name when it is not the usual one. */
export interface PortalAddress {
  readonly baseUrl: string;
  readonly service: string;
}

/**
 * One question for a portal not yet listed. The service name is almost always the usual one, so it is not a question of
 * its own: it may follow the address after a space.
 */
export async function askAddress(ui: Ui): Promise<PortalAddress | undefined> {
  const raw = await ui.input({
    id: 'signIn.baseUrl',
    title: vscode.l10n.t('Sign in to a portal'),
    prompt: vscode.l10n.t(
      'Base address of the portal API. For a service other than "{0}", add its name after a space.',
      DEFAULT_SERVICE,
    ),
    placeHolder: 'https://portal.example.com',
    value: 'https://',
    validate: (v) => {
      const { baseUrl, service } = splitAddress(v);
      return (
        baseUrlProblem(baseUrl) ??
        (/^[a-z0-9][a-z0-9-]*$/i.test(service) ? undefined : vscode.l10n.t('Letters, digits and dashes only.'))
      );
    },
  });
  return raw === undefined ? undefined : splitAddress(raw);
}

/** "https://portal.example.com sales" → the address and the service; no second word → the usual service. */
export function splitAddress(raw: string): PortalAddress {
  const [baseUrl = '', service = DEFAULT_SERVICE, ...rest] = raw.trim().split(/\s+/);
  return { baseUrl, service: rest.length > 0 ? `${service} ${rest.join(' ')}` : service };
}

export function askUsername(ui: Ui, portalLabel: string, initial: string | undefined): Promise<string | undefined> {
  return ui.input({
    id: 'signIn.username',
    title: vscode.l10n.t('Sign in to {0} (1/2)', portalLabel),
    prompt: vscode.l10n.t('Username or e-mail'),
    ...(initial !== undefined ? { value: initial } : {}),
    validate: notEmpty(vscode.l10n.t('Enter the username.')),
  });
}

export function askPassword(ui: Ui, username: string, portalLabel: string): Promise<string | undefined> {
  return ui.input({
    id: 'signIn.password',
    title: vscode.l10n.t('Sign in to {0} (2/2)', portalLabel),
    prompt: vscode.l10n.t(
      'Password for {0}. It is used once to create an application for this machine, then forgotten.',
      username,
    ),
    password: true,
    validate: notEmpty(vscode.l10n.t('Enter the password.')),
  });
}

export function askCode(ui: Ui, portalLabel: string, previousWasWrong: boolean): Promise<string | undefined> {
  return ui.input({
    id: 'signIn.code',
    title: vscode.l10n.t('Two-factor code for {0}', portalLabel),
    prompt: previousWasWrong
      ? vscode.l10n.t('That code was not accepted. Enter the current code.')
      : vscode.l10n.t('This account uses two-factor authentication. Enter the current code.'),
    password: true,
    validate: (v) => (/^\s*\d{4,10}\s*$/.test(v) ? undefined : vscode.l10n.t('Digits only.')),
  });
}

export function askClientId(ui: Ui, portalLabel: string): Promise<string | undefined> {
  return ui.input({
    id: 'signIn.clientId',
    title: vscode.l10n.t('Application credentials for {0} (1/2)', portalLabel),
    prompt: vscode.l10n.t('Client id of an existing application'),
    validate: notEmpty(vscode.l10n.t('Enter the client id.')),
  });
}

export function askClientSecret(ui: Ui, portalLabel: string): Promise<string | undefined> {
  return ui.input({
    id: 'signIn.clientSecret',
    title: vscode.l10n.t('Application credentials for {0} (2/2)', portalLabel),
    prompt: vscode.l10n.t('Client secret of that application'),
    password: true,
    validate: notEmpty(vscode.l10n.t('Enter the client secret.')),
  });
}

/** Shows a failed sign-in; true when the user wants to try again. */
export async function askRetry(ui: Ui, message: string): Promise<boolean> {
  return (
    (await ui.choose({
      id: 'signIn.failed',
      severity: 'error',
      modal: false,
      message,
      actions: [{ id: 'retry', label: vscode.l10n.t('Try again') }],
    })) === 'retry'
  );
}

type SignOutChoice = 'signOut' | 'signOutAndDelete';

/**
 * Confirms sign-out; offers deleting the application only when this machine created it, and then says why that cannot
 * be undone (`noUndo`), before anything is sent.
 */
export function askSignOut(
  ui: Ui,
  portalLabel: string,
  noUndo: string | undefined,
): Promise<SignOutChoice | undefined> {
  const canDeleteApplication = noUndo !== undefined;
  return ui.choose<SignOutChoice>({
    id: 'signOut.choice',
    severity: 'warning',
    modal: true,
    message: vscode.l10n.t('Sign out of {0}?', portalLabel),
    detail: canDeleteApplication
      ? [
          vscode.l10n.t(
            'The client id and secret this machine uses will be removed from secret storage. You can also delete the application on the portal, so those credentials stop working everywhere.',
          ),
          noUndo,
        ].join('\n\n')
      : vscode.l10n.t(
          'The client id and secret will be removed from secret storage. The application itself stays on the portal.',
        ),
    actions: [
      { id: 'signOut', label: vscode.l10n.t('Sign out') },
      ...(canDeleteApplication
        ? [{ id: 'signOutAndDelete' as const, label: vscode.l10n.t('Sign out and delete the application') }]
        : []),
    ],
  });
}
