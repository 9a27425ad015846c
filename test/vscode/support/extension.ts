import * as vscode from 'vscode';
import type { PortalExtensionApi } from '../../../src/extension';
import type { SignInPrompts } from '../../../src/auth/prompts';

import pkg from '../../../package.json';

export const EXTENSION_ID = `${pkg.publisher}.${pkg.name}`;

/**
 * The suites and the extension are separate bundles with separate copies of PortalError, so
 * `instanceof` cannot work across them: tests recognise the error by its name and kind.
 */
export function isPortalError(e: unknown, kind?: string): e is Error & { kind: string } {
  return e instanceof Error && e.name === 'PortalError' && (kind === undefined || (e as Error & { kind?: unknown }).kind === kind);
}

/** The activated extension's API, including the test-only hooks. */
export async function portalApi(): Promise<PortalExtensionApi & { testing: NonNullable<PortalExtensionApi['testing']> }> {
  const ext = vscode.extensions.getExtension<PortalExtensionApi>(EXTENSION_ID);
  if (!ext) throw new Error(`${EXTENSION_ID} is not installed in this host`);
  const api = await ext.activate();
  if (!api.testing) throw new Error('The extension did not expose its test hooks (not in ExtensionMode.Test?)');
  return api as PortalExtensionApi & { testing: NonNullable<PortalExtensionApi['testing']> };
}

export interface PromptAnswers {
  baseUrl?: string;
  service?: string;
  username?: string;
  password?: string | string[];
  codes?: string[];
  clientId?: string;
  clientSecret?: string;
  retryOnFailure?: boolean;
  signOut?: 'sign-out' | 'sign-out-and-delete';
}

/** Scripted answers for every sign-in question, with a record of what was asked. */
export function scriptedPrompts(answers: PromptAnswers) {
  const asked: string[] = [];
  const failures: string[] = [];
  const passwords = Array.isArray(answers.password) ? [...answers.password] : answers.password !== undefined ? [answers.password] : [];
  const codes = [...(answers.codes ?? [])];
  const prompts: SignInPrompts = {
    baseUrl: async (validate) => {
      asked.push('baseUrl');
      const problem = answers.baseUrl === undefined ? 'no answer' : validate(answers.baseUrl);
      if (problem) {
        failures.push(`baseUrl: ${problem}`);
        return undefined;
      }
      return answers.baseUrl;
    },
    service: async (initial) => (asked.push('service'), answers.service ?? initial),
    username: async () => (asked.push('username'), answers.username),
    password: async () => (asked.push('password'), passwords.shift()),
    twoFactorCode: async (_label, wrong) => (asked.push(wrong ? 'code-again' : 'code'), codes.shift()),
    clientId: async () => (asked.push('clientId'), answers.clientId),
    clientSecret: async () => (asked.push('clientSecret'), answers.clientSecret),
    failed: async (message) => (failures.push(message), answers.retryOnFailure === true && passwords.length > 0),
    confirmSignOut: async () => (asked.push('confirmSignOut'), answers.signOut),
  };
  return { prompts, asked, failures };
}

/** Signs in through the real sign-in command with scripted answers; returns what was asked. */
export async function signInForTest(answers: PromptAnswers) {
  const api = await portalApi();
  const script = scriptedPrompts({ service: 'portal', ...answers });
  api.testing.setPrompts(script.prompts);
  try {
    await vscode.commands.executeCommand('portal.signIn');
  } finally {
    api.testing.setPrompts(undefined);
  }
  return script;
}
