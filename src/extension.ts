import * as vscode from 'vscode';
import { PortalAuthenticationProvider, AUTH_PROVIDER_ID } from './auth/authProvider';
import { createClientFactory } from './auth/clientFactory';
import { CredentialStore, type StoredCredentials } from './auth/credentialStore';
import { PortalRegistry } from './auth/portalRegistry';
import { signInWithPassword, type SignInContext } from './auth/signIn';
import { signOut } from './auth/signOut';
import { PortalStatusBar } from './auth/statusBar';
import { registerAuthCommands } from './auth/commands';
import { createLog } from './ui/log';
import { plainUi } from './ui/plainUi';
import { UiSlot, type Ui } from './ui/ui';
import { VscodeUi } from './ui/vscodeUi';
import { registerRecords, type RecordsApi } from './features/records/register';
import { registerExplorer, type ExplorerApi } from './features/explorer/register';
import { registerForms, type FormsTesting } from './forms/formHost';

/** What activate() returns. `testing` exists only when VS Code runs the extension under test. */
export interface PortalExtensionApi {
  readonly registry: PortalRegistry;
  readonly testing?: {
    /** Every question and message goes to this Ui instead of VS Code's (undefined: VS Code's again). */
    useUi(ui: Ui | undefined): void;
    /** What SecretStorage holds for a portal, so tests can prove sign-out removed it. */
    readStoredCredentials(portalId: string): Promise<StoredCredentials | undefined>;
    /** Writes SecretStorage as another VS Code window signed in to the same portal would. */
    storeCredentials(portalId: string, credentials: StoredCredentials): Promise<void>;
    /** The open form panels, so tests can drive a form's message handler. */
    forms: FormsTesting;
    /** The views' providers and tree views. */
    explorer: ExplorerApi;
    records: RecordsApi;
  };
}

export async function activate(context: vscode.ExtensionContext): Promise<PortalExtensionApi> {
  const version = String((context.extension.packageJSON as { version?: unknown }).version ?? '0.0.0');
  const log = createLog();
  const ui = new UiSlot(new VscodeUi(), plainUi);
  // Requests are reported upwards as an event, so the status bar (built on the registry) can follow them.
  const requestSent = new vscode.EventEmitter<void>();
  const createClient = createClientFactory(log, version, () => requestSent.fire());

  const credentialStore = new CredentialStore(context.secrets);
  const registry = new PortalRegistry(credentialStore, createClient, (c) => {
    log.warn(`Signed out of ${c.entry.label}: ${c.signedOutReason ?? 'credentials refused'}`);
    const asker = ui.get();
    void asker.choose({
      id: 'session.signedOut', severity: 'warning', modal: false,
      message: `Signed out of ${c.entry.label}. ${c.signedOutReason ?? ''} Sign in again to continue.`,
      actions: [{ id: 'signIn', label: 'Sign in again' }],
    }).then((choice) => (choice ? signInWithPassword(signIn, asker, c.entry) : undefined));
  });
  await registry.restore();
  const statusBar = new PortalStatusBar(registry);
  requestSent.event(() => statusBar.scheduleUpdate());

  const signIn: SignInContext = { registry, createClient, extensionVersion: version };
  const authProvider = new PortalAuthenticationProvider(
    registry,
    () => signInWithPassword(signIn, ui.get()),
    async (portalId) => void (await signOut(registry, ui.get(), portalId, false)),
  );

  context.subscriptions.push(
    log,
    requestSent,
    registry,
    statusBar,
    authProvider,
    vscode.authentication.registerAuthenticationProvider(AUTH_PROVIDER_ID, 'Portal', authProvider, { supportsMultipleAccounts: true }),
    ...registerAuthCommands(signIn, statusBar, ui.get),
    // "Portal: Refresh" re-reads the portal list, then reloads every view from the portals.
    vscode.commands.registerCommand('portal.refresh', async () => {
      await registry.restore();
      for (const view of ['explorer', 'members', 'applications']) await vscode.commands.executeCommand(`portal.${view}.refresh`);
    }),
  );

  const forms = registerForms(context, { registry, log, ui: ui.get });
  const explorer = registerExplorer(context, { registry, log, statusBar, ui: ui.get });
  const records = registerRecords(context, { registry, log, ui: ui.get });

  return {
    registry,
    ...(context.extensionMode === vscode.ExtensionMode.Test
      ? {
          testing: {
            useUi: (u: Ui | undefined) => ui.use(u),
            readStoredCredentials: (portalId: string) => credentialStore.get(portalId),
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
