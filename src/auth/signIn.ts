import * as os from 'node:os';
import * as vscode from 'vscode';
import { PortalError, type PortalClient } from '../api';
import type { NewCredentials } from './credentialStore';
import { baseUrlProblem } from './baseUrl';
import { normaliseBaseUrl, portalIdOf, type PortalEntry } from './portalEntry';
import type { PortalConnection, PortalRegistry, ClientFactory } from './portalRegistry';
import type { SignInPrompts } from './prompts';
import { describeSignInError } from './signInErrors';
import * as notify from '../shared/notify';

export interface SignInContext {
  readonly registry: PortalRegistry;
  readonly createClient: ClientFactory;
  readonly prompts: () => SignInPrompts;
  readonly extensionVersion: string;
}

const MAX_CODE_ATTEMPTS = 3;

/** The application this machine registers: named after the extension and the host, so users can tell it apart. */
export function applicationDraftForThisMachine(version: string) {
  const platform = process.platform === 'linux' ? 'LINUX' : process.platform === 'win32' ? 'WINDOWS' : 'OTHER';
  return {
    name: `Portal for VS Code on ${os.hostname()}`,
    description: 'Created by the Portal for VS Code extension at sign-in. Deleting it signs that VS Code out.',
    platform,
    deviceType: 'Other',
    deviceModel: os.type(),
    deviceOs: `${os.platform()} ${os.release()}`,
    appVersion: version,
    bundleId: 'portal-tools.portal-vscode',
  } as const;
}

/** Asks where the portal is, unless signing in again to a known one. */
async function askPortal(ctx: SignInContext, known?: PortalEntry): Promise<PortalEntry | undefined> {
  if (known) return known;
  const p = ctx.prompts();
  const raw = await p.baseUrl(baseUrlProblem);
  if (raw === undefined) return undefined;
  const service = await p.service('portal');
  if (service === undefined) return undefined;
  const baseUrl = normaliseBaseUrl(raw);
  const id = portalIdOf(baseUrl, service.trim());
  // Signing in again to a listed portal keeps the name the user knows it by.
  const label = ctx.registry.get(id)?.entry.label ?? new URL(baseUrl).host;
  return { id, label, baseUrl, service: service.trim() };
}

/**
 * Password sign-in: grant with the user's password (and a two-factor code when asked), create an
 * application for this machine, keep only its client id and secret. The password never leaves this function.
 */
export async function signInWithPassword(ctx: SignInContext, known?: PortalEntry): Promise<PortalConnection | undefined> {
  const entry = await askPortal(ctx, known);
  if (!entry) return undefined;
  const p = ctx.prompts();
  let username: string | undefined = ctx.registry.get(entry.id)?.username;
  for (let attempt = 0; attempt < 5; attempt++) {
    username = await p.username(entry.label, username);
    if (username === undefined) return undefined;
    const password = await p.password(username, entry.label);
    if (password === undefined) return undefined;
    const client = ctx.createClient(entry, () => undefined);
    try {
      const signedIn = await withProgress(`Signing in to ${entry.label}…`, () => grantWithCode(client, entry, username!.trim(), password, p));
      if (!signedIn) return undefined;
      const enrolled = await withProgress(`Registering this machine with ${entry.label}…`, () =>
        client.enrollApplication(applicationDraftForThisMachine(ctx.extensionVersion)),
      );
      const credentials: NewCredentials = {
        clientId: enrolled.clientId,
        clientSecret: enrolled.clientSecret,
        username: username.trim(),
        applicationCreatedHere: true,
      };
      // The token the enrolment just proved goes with the credentials: the portal's first call needs no grant.
      return await keepOrDelete(client, credentials, () => ctx.registry.add(entry, credentials, client.tokens()));
    } catch (error) {
      if (!(await p.failed(describeSignInError(error, entry)))) return undefined;
    } finally {
      client.close();
    }
  }
  return undefined;
}

/**
 * Stores what a sign-in created; when that fails, the application it registered is deleted again, so a retry
 * leaves no orphan on the portal holding a secret nobody has.
 */
async function keepOrDelete<T>(client: PortalClient, created: NewCredentials, keep: () => Promise<T>): Promise<T> {
  try {
    return await keep();
  } catch (error) {
    await client.v3.applications.delete(created.clientId).catch(() => undefined);
    throw error;
  }
}

/** Runs the password grant, asking for a two-factor code only when the portal asks for one. */
async function grantWithCode(client: PortalClient, entry: PortalEntry, username: string, password: string, p: SignInPrompts): Promise<boolean> {
  let code: string | undefined;
  for (let attempt = 0; attempt <= MAX_CODE_ATTEMPTS; attempt++) {
    try {
      await client.signIn({ kind: 'password', username, password, ...(code ? { code } : {}) });
      return true;
    } catch (error) {
      if (!(error instanceof PortalError) || (error.kind !== 'two-factor-required' && error.kind !== 'two-factor-invalid')) throw error;
      if (attempt === MAX_CODE_ATTEMPTS) throw error;
      code = (await p.twoFactorCode(entry.label, error.kind === 'two-factor-invalid'))?.trim();
      if (code === undefined) return false;
    }
  }
  return false;
}

/** The second way in: an application the user already has. */
export async function signInWithClientCredentials(ctx: SignInContext, known?: PortalEntry): Promise<PortalConnection | undefined> {
  const entry = await askPortal(ctx, known);
  if (!entry) return undefined;
  const p = ctx.prompts();
  for (let attempt = 0; attempt < 5; attempt++) {
    const clientId = (await p.clientId(entry.label))?.trim();
    if (!clientId) return undefined;
    const clientSecret = (await p.clientSecret(entry.label))?.trim();
    if (!clientSecret) return undefined;
    const client = ctx.createClient(entry, () => undefined);
    try {
      const info = await withProgress(`Signing in to ${entry.label}…`, async () => {
        await client.signIn({ kind: 'client', clientId, clientSecret });
        return client.v3.userinfo();
      });
      return await ctx.registry.add(entry, { clientId, clientSecret, username: info.name, applicationCreatedHere: false }, client.tokens());
    } catch (error) {
      if (!(await p.failed(describeSignInError(error, entry)))) return undefined;
    } finally {
      client.close();
    }
  }
  return undefined;
}

/** Sign-out removes the session and its secrets; it offers to delete the application too when we created it. */
export async function signOut(ctx: SignInContext, portalId: string, confirm: boolean): Promise<boolean> {
  const c = ctx.registry.get(portalId);
  if (!c) return false;
  const owned = c.client !== undefined && c.applicationCreatedHere;
  const choice = confirm ? await ctx.prompts().confirmSignOut(c.entry.label, owned) : 'sign-out';
  if (!choice) return false;
  if (choice === 'sign-out-and-delete' && c.client && c.clientId) {
    try {
      await c.client.v3.applications.delete(c.clientId);
    } catch (error) {
      void notify.warn(`Signed out, but the application could not be deleted on the portal: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  await ctx.registry.signOut(portalId);
  return true;
}

function withProgress<T>(title: string, task: () => Promise<T>): Promise<T> {
  return notify.progress({ location: vscode.ProgressLocation.Notification, title }, task);
}
