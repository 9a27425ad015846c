/**
 * Sign-in, sessions and secrets, made once in activate(): the portal registry restored from settings and
 * SecretStorage, the Accounts-menu provider, the status bar, the signed-out notice, and the auth commands.
 */
import * as vscode from 'vscode';
import { registerCommand, type CommandEnv } from '../ui/commands';
import { setContextKey } from '../ui/contextKeys';
import { SettingsWriter } from '../ui/settingsWriter';
import type { Ui } from '../ui/ui';
import { PortalAuthenticationProvider, AUTH_PROVIDER_ID } from './authProvider';
import { createClientFactory } from './clientFactory';
import { knownEntry, removePortal, signOutCommand } from './commands';
import { CredentialStore } from './credentialStore';
import type { PortalEntry } from './portalEntry';
import { PortalRegistry, type PortalConnection } from './portalRegistry';
import { showSessions } from './sessions';
import { signInWithClientCredentials, signInWithPassword, type SignInContext } from './signIn';
import { signOut } from './signOut';
import { PortalStatusBar } from './statusBar';

export interface AuthHandle {
  readonly registry: PortalRegistry;
  /** Every change to a group, the organisation or an application, through the engine (made here: sign-out uses it). */
  readonly settings: SettingsWriter;
  readonly store: CredentialStore;
  readonly statusBar: PortalStatusBar;
  readonly log: vscode.LogOutputChannel;
  signIn(ui: Ui, known?: PortalEntry): Promise<PortalConnection | undefined>;
  signInWithClientCredentials(ui: Ui, known?: PortalEntry): Promise<PortalConnection | undefined>;
  showSessions(ui: Ui): Promise<void>;
}

interface AuthDeps {
  readonly log: vscode.LogOutputChannel;
  readonly ui: () => Ui;
  readonly version: string;
}

/** Registry restored, AuthenticationProvider, status bar, and the notice when the portal signs a session out. */
export async function createAuth(context: vscode.ExtensionContext, deps: AuthDeps): Promise<AuthHandle> {
  const { log, ui } = deps;
  // Requests are reported upwards as an event, so the status bar (built on the registry) can follow them.
  const requestSent = new vscode.EventEmitter<void>();
  const createClient = createClientFactory(log, deps.version, () => requestSent.fire());
  const store = new CredentialStore(context.secrets);
  // The engine's writer sends with the registry's clients, which it asks for only when it writes; the registry
  // deletes through it the application a replaced sign-in created.
  const settings: SettingsWriter = new SettingsWriter(context.globalStorageUri.fsPath, (id) => registry.client(id));
  const registry = new PortalRegistry(store, createClient, (c) => signedOutNotice(handle, ui, c), settings);
  await registry.restore();
  const statusBar = new PortalStatusBar(registry);
  const signIn: SignInContext = { registry, createClient, extensionVersion: deps.version, settings };
  const handle: AuthHandle = {
    registry,
    settings,
    store,
    statusBar,
    log,
    signIn: (u, known) => signInWithPassword(signIn, u, known).then((c) => signedInNotice(u, c)),
    signInWithClientCredentials: (u, known) =>
      signInWithClientCredentials(signIn, u, known).then((c) => signedInNotice(u, c)),
    showSessions: (u) =>
      showSessions(u, { registry, settings, statusBar, signIn: (v, known) => signInWithPassword(signIn, v, known) }),
  };
  const authProvider = new PortalAuthenticationProvider(
    registry,
    () => handle.signIn(ui()),
    async (portalId) => void (await signOut({ registry, settings }, ui(), portalId, false)),
  );
  context.subscriptions.push(
    requestSent,
    requestSent.event(() => statusBar.scheduleUpdate()),
    registry,
    statusBar,
    authProvider,
    vscode.authentication.registerAuthenticationProvider(AUTH_PROVIDER_ID, 'Portal', authProvider, {
      supportsMultipleAccounts: true,
    }),
    signedInContext(registry),
  );
  return handle;
}

/** The context key `portal.signedIn`: true while any portal is signed in (the walkthrough's first step waits for it; Go to File Record's key needs a portal to search). */
function signedInContext(registry: PortalRegistry): vscode.Disposable {
  let last: boolean | undefined;
  const update = (): void => {
    const signedIn = registry.list().some((c) => c.client !== undefined);
    if (signedIn === last) return;
    last = signedIn;
    void setContextKey('portal.signedIn', signedIn);
  };
  update();
  return registry.onDidChange(update);
}

/**
 * After a sign-in, one notification names the portal and the user (their name as the portal gives it, and the
 * username), with the Portal view a click away: the status bar alone is easily missed. The Ui makes the portal's
 * text plain. A failed read of the name leaves the username alone.
 */
async function signedInNotice(ui: Ui, c: PortalConnection | undefined): Promise<PortalConnection | undefined> {
  if (!c?.client) return c;
  const info = await c.client.v3.userinfo().catch(() => undefined);
  const username = c.username ?? info?.name ?? '';
  const name = info?.user?.name;
  void ui
    .choose({
      id: 'signIn.done',
      severity: 'info',
      modal: false,
      message:
        name && name !== username
          ? vscode.l10n.t('Signed in to {0} as {1} ({2}).', c.entry.label, name, username)
          : vscode.l10n.t('Signed in to {0} as {1}.', c.entry.label, username),
      actions: [{ id: 'open', label: vscode.l10n.t('Open Portal View') }],
    })
    .then((choice) =>
      choice === 'open' ? vscode.commands.executeCommand('workbench.view.extension.portal') : undefined,
    );
  return c;
}

/** The portal signed this window out (credentials refused): say so once, and offer to sign in again. */
function signedOutNotice(auth: AuthHandle, ui: () => Ui, c: PortalConnection): void {
  auth.log.warn(`Signed out of ${c.entry.label}: ${c.signedOutReason ?? 'credentials refused'}`);
  void ui()
    .choose({
      id: 'session.signedOut',
      severity: 'warning',
      modal: false,
      message: c.signedOutReason
        ? vscode.l10n.t('Signed out of {0}. {1} Sign in again to continue.', c.entry.label, c.signedOutReason)
        : vscode.l10n.t('Signed out of {0}. Sign in again to continue.', c.entry.label),
      actions: [{ id: 'signIn', label: vscode.l10n.t('Sign in again') }],
    })
    .then((choice) => (choice ? auth.signIn(ui(), c.entry) : undefined));
}

export function registerAuthCommands(context: vscode.ExtensionContext, commands: CommandEnv, auth: AuthHandle): void {
  const { registry } = auth;
  context.subscriptions.push(
    registerCommand(commands, 'portal.signIn', (run) => auth.signIn(run.ui, knownEntry(registry, run))),
    registerCommand(commands, 'portal.signInWithClientCredentials', (run) =>
      auth.signInWithClientCredentials(run.ui, knownEntry(registry, run)),
    ),
    registerCommand(commands, 'portal.signOut', (run) => signOutCommand(auth, run)),
    registerCommand(commands, 'portal.removePortal', (run) => removePortal(registry, run)),
    registerCommand(commands, 'portal.showSessions', (run) => auth.showSessions(run.ui)),
  );
}
