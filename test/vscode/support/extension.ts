import * as vscode from 'vscode';
import type { PortalTestApi } from '../../../src/extension';
import { visible, withUi, type Answers, type ScriptedUi } from './ui';

import pkg from '../../../package.json';

export const EXTENSION_ID = `${pkg.publisher}.${pkg.name}`;

/**
 * The suites and the extension are separate bundles with separate copies of PortalError, so
 * `instanceof` cannot work across them: tests recognise the error by its name and kind.
 */
export function isPortalError(e: unknown, kind?: string): e is Error & { kind: string } {
  return (
    e instanceof Error &&
    e.name === 'PortalError' &&
    (kind === undefined || (e as Error & { kind?: unknown }).kind === kind)
  );
}

/** The activated extension's test handle (development and test builds only, under test: see src/extension.ts). */
export async function portalApi(): Promise<PortalTestApi> {
  const ext = vscode.extensions.getExtension<PortalTestApi | undefined>(EXTENSION_ID);
  if (!ext) throw new Error(`${EXTENSION_ID} is not installed in this host`);
  const api = await ext.activate();
  if (!api)
    throw new Error('The extension exported no test handle (a production build, or not in ExtensionMode.Test?)');
  return api;
}

export interface SignInAnswers {
  baseUrl?: string;
  service?: string;
  username?: string;
  /** One per attempt; a wrong one with more to come is retried. */
  password?: string | string[];
  /** Two-factor codes, one per time the portal asks. */
  codes?: string[];
}

/** What a scripted sign-in asked and what it said went wrong (a refused address, a failed attempt). */
export interface SignInScript {
  readonly ui: ScriptedUi;
  /** The questions, by id, in order: 'signIn.baseUrl', 'signIn.username', … (the listed portals' pick left out) */
  readonly asked: string[];
  readonly failures: string[];
}

export function signInAnswers(a: SignInAnswers): Answers {
  const passwords = Array.isArray(a.password) ? a.password : a.password !== undefined ? [a.password] : [];
  return {
    // An address means a portal typed in: "Another portal…" when the sign-in offers the listed ones first.
    ...(a.baseUrl !== undefined
      ? {
          'signIn.portal': (v: unknown) => v === 'another',
          'signIn.baseUrl': a.service !== undefined ? `${a.baseUrl} ${a.service}` : a.baseUrl,
        }
      : {}),
    ...(a.username !== undefined ? { 'signIn.username': Array(passwords.length || 1).fill(a.username) } : {}),
    ...(passwords.length > 0 ? { 'signIn.password': passwords } : {}),
    ...(passwords.length > 1 ? { 'signIn.failed': Array(passwords.length - 1).fill('retry') } : {}),
    ...(a.codes ? { 'signIn.code': a.codes } : {}),
  };
}

export function signInFailures(ui: ScriptedUi): string[] {
  return [
    ...ui.refused.map((r) => `${r.id}: ${r.problem}`),
    ...ui.asked.filter((q) => q.id === 'signIn.failed').map((q) => visible(q.texts[0] ?? '')),
  ];
}

/** Runs a sign-in command with scripted answers; returns what was asked. Questions the flow never reached are fine. */
export async function signInForTest(
  answers: SignInAnswers,
  command = 'portal.signIn',
  ...args: unknown[]
): Promise<SignInScript> {
  return withUi(
    signInAnswers(answers),
    async (ui) => {
      await vscode.commands.executeCommand(command, ...args);
      return { ui, asked: ui.questions.filter((q) => q !== 'signIn.portal'), failures: signInFailures(ui) };
    },
    { allUsed: false },
  );
}
