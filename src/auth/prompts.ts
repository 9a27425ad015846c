import * as vscode from 'vscode';
import * as notify from '../shared/notify';
import { plain } from '../shared/plainText';

/**
 * Every question sign-in asks. The VS Code implementation uses input boxes; the in-VS-Code tests
 * substitute scripted answers through the extension's test API (Playwright drives the real boxes).
 * `undefined` means the user cancelled.
 */
export interface SignInPrompts {
  baseUrl(validate: (value: string) => string | undefined, initial?: string): Promise<string | undefined>;
  service(initial: string): Promise<string | undefined>;
  username(portalLabel: string, initial?: string): Promise<string | undefined>;
  password(username: string, portalLabel: string): Promise<string | undefined>;
  twoFactorCode(portalLabel: string, previousWasWrong: boolean): Promise<string | undefined>;
  clientId(portalLabel: string): Promise<string | undefined>;
  clientSecret(portalLabel: string): Promise<string | undefined>;
  /** Shows a failure; resolves true when the user wants to try again. */
  failed(message: string): Promise<boolean>;
  /** Confirms sign-out; offers deleting the application only when this machine created it. */
  confirmSignOut(portalLabel: string, canDeleteApplication: boolean): Promise<'sign-out' | 'sign-out-and-delete' | undefined>;
}

const notEmpty = (what: string) => (v: string) => (v.trim() ? undefined : `Enter the ${what}.`);

export const inputBoxPrompts: SignInPrompts = {
  baseUrl: async (validate, initial) =>
    vscode.window.showInputBox({
      title: 'Sign in to a portal (1/4)',
      prompt: 'Base address of the portal API',
      placeHolder: 'https://portal.example.com',
      value: initial ?? 'https://',
      ignoreFocusOut: true,
      validateInput: validate,
    }),
  service: async (initial) =>
    vscode.window.showInputBox({
      title: 'Sign in to a portal (2/4)',
      prompt: 'Service name (the password sign-in uses the client id "<service>-mobile")',
      value: initial,
      ignoreFocusOut: true,
      validateInput: (v) => (/^[a-z0-9][a-z0-9-]*$/i.test(v.trim()) ? undefined : 'Letters, digits and dashes only.'),
    }),
  username: async (portalLabel, initial) =>
    vscode.window.showInputBox({
      title: plain(`Sign in to ${portalLabel} (3/4)`),
      prompt: 'Username or e-mail',
      value: initial,
      ignoreFocusOut: true,
      validateInput: notEmpty('username'),
    }),
  password: async (username, portalLabel) =>
    vscode.window.showInputBox({
      title: plain(`Sign in to ${portalLabel} (4/4)`),
      prompt: plain(`Password for ${username}. It is used once to create an application for this machine, then forgotten.`),
      password: true,
      ignoreFocusOut: true,
      validateInput: notEmpty('password'),
    }),
  twoFactorCode: async (portalLabel, previousWasWrong) =>
    vscode.window.showInputBox({
      title: plain(`Two-factor code for ${portalLabel}`),
      prompt: previousWasWrong ? 'That code was not accepted. Enter the current code.' : 'This account uses two-factor authentication. Enter the current code.',
      password: true,
      ignoreFocusOut: true,
      validateInput: (v) => (/^\s*\d{4,10}\s*$/.test(v) ? undefined : 'Digits only.'),
    }),
  clientId: async (portalLabel) =>
    vscode.window.showInputBox({
      title: plain(`Application credentials for ${portalLabel} (1/2)`),
      prompt: 'Client id of an existing application',
      ignoreFocusOut: true,
      validateInput: notEmpty('client id'),
    }),
  clientSecret: async (portalLabel) =>
    vscode.window.showInputBox({
      title: plain(`Application credentials for ${portalLabel} (2/2)`),
      prompt: 'Client secret of that application',
      password: true,
      ignoreFocusOut: true,
      validateInput: notEmpty('client secret'),
    }),
  failed: async (message) => (await notify.error(message, 'Try again')) === 'Try again',
  confirmSignOut: async (portalLabel, canDeleteApplication) => {
    const signOutOnly = 'Sign out';
    const alsoDelete = 'Sign out and delete the application';
    const choice = await notify.ask(
      `Sign out of ${portalLabel}?`,
      canDeleteApplication
        ? 'The client id and secret this machine uses will be removed from secret storage. You can also delete the application on the portal, so those credentials stop working everywhere.'
        : 'The client id and secret will be removed from secret storage. The application itself stays on the portal.',
      ...(canDeleteApplication ? [signOutOnly, alsoDelete] : [signOutOnly]),
    );
    return choice === alsoDelete ? 'sign-out-and-delete' : choice === signOutOnly ? 'sign-out' : undefined;
  },
};
