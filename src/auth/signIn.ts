import * as os from 'node:os';
import * as vscode from 'vscode';
import { PortalError, type PortalClient } from '../api';
import type { SettingsWriter } from '../ui/settingsWriter';
import type { Ui } from '../ui/ui';
import type { NewCredentials } from './credentialStore';
import { listedPortal, normaliseBaseUrl, portalIdOf, type PortalEntry } from './portalEntry';
import { ANOTHER_PORTAL, pickPortalToSignIn } from './portalPick';
import type { PortalConnection, PortalRegistry, ClientFactory } from './portalRegistry';
import { askAddress, askClientId, askClientSecret, askCode, askPassword, askRetry, askUsername } from './questions';
import { describeSignInError } from './signInErrors';
import { removeUnusedApplication } from './unusedApplication';

export interface SignInContext {
  readonly registry: PortalRegistry;
  readonly createClient: ClientFactory;
  readonly extensionVersion: string;
  /** The engine's way to delete the application a failed sign-in registered (see unusedApplication.ts). */
  readonly settings: SettingsWriter;
}

const MAX_CODE_ATTEMPTS = 3;

/** The application this machine registers: named after the extension and the host, so users can tell it apart. */
function applicationDraftForThisMachine(version: string) {
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

/**
 * Which portal: the one a row or a notice names, else a listed one or a new address. An address and service that
 * normalise to a listed portal are that portal, so a sign-in never adds it twice.
 */
async function askPortal(ctx: SignInContext, ui: Ui, known?: PortalEntry): Promise<PortalEntry | undefined> {
  if (known) return known;
  const chosen = await pickPortalToSignIn(ui, ctx.registry);
  if (chosen !== ANOTHER_PORTAL) return chosen;
  const address = await askAddress(ui);
  if (address === undefined) return undefined;
  const baseUrl = normaliseBaseUrl(address.baseUrl);
  const listed = listedPortal(
    ctx.registry.list().map((c) => c.entry),
    baseUrl,
    address.service,
  );
  if (listed) return listed;
  return { id: portalIdOf(baseUrl, address.service), label: new URL(baseUrl).host, baseUrl, service: address.service };
}

/**
 * Password sign-in: grant with the user's password (and a two-factor code when asked), create an
 * application for this machine, keep only its client id and secret. The password never leaves this function.
 */
export async function signInWithPassword(
  ctx: SignInContext,
  ui: Ui,
  known?: PortalEntry,
): Promise<PortalConnection | undefined> {
  let username: string | undefined;
  return signInAttempts(ctx, ui, known, async (entry, client) => {
    username = await askUsername(ui, entry.label, username ?? ctx.registry.get(entry.id)?.username);
    if (username === undefined) return undefined;
    const password = await askPassword(ui, username, entry.label);
    if (password === undefined) return undefined;
    const who = username.trim();
    const signedIn = await progress(ui, 'signIn.progress', vscode.l10n.t('Signing in to {0}…', entry.label), () =>
      grantWithCode(ui, client, entry, who, password),
    );
    if (!signedIn) return undefined;
    const enrolled = await progress(
      ui,
      'signIn.register',
      vscode.l10n.t('Registering this machine with {0}…', entry.label),
      () => client.enrollApplication(applicationDraftForThisMachine(ctx.extensionVersion)),
    );
    const credentials: NewCredentials = {
      clientId: enrolled.clientId,
      clientSecret: enrolled.clientSecret,
      username: who,
      applicationCreatedHere: true,
    };
    // The token the enrolment just proved goes with the credentials: the portal's first call needs no grant.
    const registered = { clientId: enrolled.clientId, name: enrolled.application.name };
    const keep = () => ctx.registry.add(entry, credentials, client.tokens());
    return keepOrDelete(ctx.settings, client, entry.id, registered, keep);
  });
}

/**
 * Asks for the portal, then tries a way in up to five times. Each try asks its own questions with a client of its
 * own, closed whatever happens; a try that fails asks whether to try again, one that is cancelled (undefined) ends.
 */
async function signInAttempts(
  ctx: SignInContext,
  ui: Ui,
  known: PortalEntry | undefined,
  attempt: (entry: PortalEntry, client: PortalClient) => Promise<PortalConnection | undefined>,
): Promise<PortalConnection | undefined> {
  const entry = await askPortal(ctx, ui, known);
  if (!entry) return undefined;
  for (let tries = 0; tries < 5; tries++) {
    const client = ctx.createClient(entry, () => undefined);
    try {
      return await attempt(entry, client);
    } catch (error) {
      if (!(await askRetry(ui, describeSignInError(error, entry)))) return undefined;
    } finally {
      client.close();
    }
  }
  return undefined;
}

/**
 * Stores what a sign-in created; when that fails, the application it registered is deleted again (through the
 * engine, with the credentials that registered it: see unusedApplication.ts), so a retry leaves no orphan on the
 * portal holding a secret nobody has. A failed clean-up does not hide the first failure.
 */
async function keepOrDelete<T>(
  settings: SettingsWriter,
  client: PortalClient,
  portalId: string,
  registered: { readonly clientId: string; readonly name: string },
  keep: () => Promise<T>,
): Promise<T> {
  try {
    return await keep();
  } catch (error) {
    await removeUnusedApplication(settings, client, portalId, registered).catch(() => undefined);
    throw error;
  }
}

/** Runs the password grant, asking for a two-factor code only when the portal asks for one. */
async function grantWithCode(
  ui: Ui,
  client: PortalClient,
  entry: PortalEntry,
  username: string,
  password: string,
): Promise<boolean> {
  let code: string | undefined;
  for (let attempt = 0; attempt <= MAX_CODE_ATTEMPTS; attempt++) {
    try {
      await client.signIn({ kind: 'password', username, password, ...(code ? { code } : {}) });
      return true;
    } catch (error) {
      if (
        !(error instanceof PortalError) ||
        (error.kind !== 'two-factor-required' && error.kind !== 'two-factor-invalid')
      )
        throw error;
      if (attempt === MAX_CODE_ATTEMPTS) throw error;
      code = (await askCode(ui, entry.label, error.kind === 'two-factor-invalid'))?.trim();
      if (code === undefined) return false;
    }
  }
  return false;
}

/** The second way in: an application the user already has. */
export async function signInWithClientCredentials(
  ctx: SignInContext,
  ui: Ui,
  known?: PortalEntry,
): Promise<PortalConnection | undefined> {
  return signInAttempts(ctx, ui, known, async (entry, client) => {
    const clientId = (await askClientId(ui, entry.label))?.trim();
    if (!clientId) return undefined;
    const clientSecret = (await askClientSecret(ui, entry.label))?.trim();
    if (!clientSecret) return undefined;
    const info = await progress(ui, 'signIn.progress', vscode.l10n.t('Signing in to {0}…', entry.label), async () => {
      await client.signIn({ kind: 'client', clientId, clientSecret });
      return client.v3.userinfo();
    });
    return ctx.registry.add(
      entry,
      { clientId, clientSecret, username: info.name, applicationCreatedHere: false },
      client.tokens(),
    );
  });
}

function progress<T>(
  ui: Ui,
  id: 'signIn.progress' | 'signIn.register',
  title: string,
  task: () => Promise<T>,
): Promise<T> {
  return ui.progress({ id, title, where: 'notification' }, task);
}
