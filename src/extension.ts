import * as vscode from 'vscode';
import { PortalAuthenticationProvider, AUTH_PROVIDER_ID } from './auth/authProvider';
import { createClientFactory } from './auth/clientFactory';
import { CredentialStore, type StoredCredentials } from './auth/credentialStore';
import { PortalRegistry } from './auth/portalRegistry';
import { inputBoxPrompts, type SignInPrompts } from './auth/prompts';
import { signInWithPassword, signOut, type SignInContext } from './auth/signIn';
import { PortalStatusBar } from './auth/statusBar';
import { registerAuthCommands } from './commands/auth';
import { createLog } from './ui/log';
import { registerRecords, type RecordsApi } from './records';
import { registerExplorer, type ExplorerApi } from './tree';
import { registerForms, type FormsTesting } from './webview';
import * as notify from './shared/notify';

/** What activate() returns. `testing` exists only when VS Code runs the extension under test. */
export interface PortalExtensionApi {
  readonly registry: PortalRegistry;
  readonly testing?: {
    setPrompts(prompts: SignInPrompts | undefined): void;
    /** What SecretStorage holds for a portal, so tests can prove sign-out removed it. */
    readStoredCredentials(portalId: string): Promise<StoredCredentials | undefined>;
    /** Every notification, question, status message and progress title as VS Code was given it. */
    readonly notifications: Array<{ kind: notify.NotificationKind; text: string }>;
    /** Writes SecretStorage as another VS Code window signed in to the same portal would. */
    storeCredentials(portalId: string, credentials: StoredCredentials): Promise<void>;
    /** The open form panels (issue 7), so tests can drive a form's message handler. */
    forms: FormsTesting;
    /** The views' providers and tree views, and scripted answers for their commands (issue 6). */
    explorer: ExplorerApi;
    records: RecordsApi;
  };
}

export async function activate(context: vscode.ExtensionContext): Promise<PortalExtensionApi> {
  const version = String((context.extension.packageJSON as { version?: unknown }).version ?? '0.0.0');
  const log = createLog();
  // Requests are reported upwards as an event, so the status bar (built on the registry) can follow them.
  const requestSent = new vscode.EventEmitter<void>();
  const createClient = createClientFactory(log, version, () => requestSent.fire());

  const credentialStore = new CredentialStore(context.secrets);
  const registry = new PortalRegistry(credentialStore, createClient, (c) => {
    log.warn(`Signed out of ${c.entry.label}: ${c.signedOutReason ?? 'credentials refused'}`);
    void notify
      .warn(`Signed out of ${c.entry.label}. ${c.signedOutReason ?? ''} Sign in again to continue.`, 'Sign in again')
      .then((choice) => (choice ? vscode.commands.executeCommand('portal.signIn', c.entry.id) : undefined));
  });
  await registry.restore();
  const statusBar = new PortalStatusBar(registry);
  requestSent.event(() => statusBar.scheduleUpdate());

  let prompts: SignInPrompts = inputBoxPrompts;
  const signIn: SignInContext = { registry, createClient, prompts: () => prompts, extensionVersion: version };
  const authProvider = new PortalAuthenticationProvider(
    registry,
    () => signInWithPassword(signIn),
    async (portalId) => void (await signOut(signIn, portalId, false)),
  );

  context.subscriptions.push(
    log,
    requestSent,
    registry,
    statusBar,
    authProvider,
    vscode.authentication.registerAuthenticationProvider(AUTH_PROVIDER_ID, 'Portal', authProvider, { supportsMultipleAccounts: true }),
    ...registerAuthCommands(signIn, statusBar),
    // "Portal: Refresh" re-reads the portal list, then reloads every view from the portals.
    vscode.commands.registerCommand('portal.refresh', async () => {
      await registry.restore();
      for (const view of ['explorer', 'members', 'applications']) await vscode.commands.executeCommand(`portal.${view}.refresh`);
    }),
  );

  const forms = registerForms(context, { registry, log });
  const explorer = registerExplorer(context, { registry, log, statusBar });
  const records = registerRecords(context, { registry, log });

  const notifications: Array<{ kind: notify.NotificationKind; text: string }> = [];
  if (context.extensionMode === vscode.ExtensionMode.Test) notify.observeNotifications((kind, text) => notifications.push({ kind, text }));

  return {
    registry,
    ...(context.extensionMode === vscode.ExtensionMode.Test
      ? {
          testing: {
            setPrompts: (p: SignInPrompts | undefined) => void (prompts = p ?? inputBoxPrompts),
            readStoredCredentials: (portalId: string) => credentialStore.get(portalId),
            notifications,
            storeCredentials: (portalId: string, credentials: StoredCredentials) => credentialStore.set(portalId, credentials),
            forms: forms.testing,
            explorer,
            records,
          },
        }
      : {}),
  };
}

export function deactivate(): void {
  // Everything is released through context.subscriptions.
}
