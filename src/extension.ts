import * as vscode from 'vscode';
import { PortalAuthenticationProvider, AUTH_PROVIDER_ID } from './auth/authProvider';
import { createClientFactory } from './auth/clientFactory';
import { CredentialStore } from './auth/credentialStore';
import { PortalRegistry } from './auth/portalRegistry';
import { inputBoxPrompts, type SignInPrompts } from './auth/prompts';
import { signInWithPassword, signOut, type SignInContext } from './auth/signIn';
import { PortalStatusBar } from './auth/statusBar';
import { registerAuthCommands } from './commands/auth';
import { createLog } from './log';

/** What activate() returns. `testing` exists only when VS Code runs the extension under test. */
export interface PortalExtensionApi {
  readonly registry: PortalRegistry;
  readonly testing?: {
    setPrompts(prompts: SignInPrompts | undefined): void;
  };
}

export async function activate(context: vscode.ExtensionContext): Promise<PortalExtensionApi> {
  const version = String((context.extension.packageJSON as { version?: unknown }).version ?? '0.0.0');
  const log = createLog();
  let statusBar: PortalStatusBar | undefined;
  const createClient = createClientFactory(log, version, () => statusBar?.scheduleUpdate());

  const registry = new PortalRegistry(new CredentialStore(context.secrets), createClient, (c) => {
    log.warn(`Signed out of ${c.entry.label}: ${c.signedOutReason ?? 'credentials refused'}`);
    void vscode.window
      .showWarningMessage(`Signed out of ${c.entry.label}. ${c.signedOutReason ?? ''} Sign in again to continue.`, 'Sign in again')
      .then((choice) => (choice ? vscode.commands.executeCommand('portal.signIn', c.entry.id) : undefined));
  });
  await registry.restore();
  statusBar = new PortalStatusBar(registry);

  let prompts: SignInPrompts = inputBoxPrompts;
  const signIn: SignInContext = { registry, createClient, prompts: () => prompts, extensionVersion: version };
  const authProvider = new PortalAuthenticationProvider(
    registry,
    () => signInWithPassword(signIn),
    async (portalId) => void (await signOut(registry, portalId, false)),
  );

  context.subscriptions.push(
    log,
    registry,
    statusBar,
    authProvider,
    vscode.authentication.registerAuthenticationProvider(AUTH_PROVIDER_ID, 'Portal', authProvider, { supportsMultipleAccounts: true }),
    ...registerAuthCommands(signIn, statusBar),
    vscode.commands.registerCommand('portal.refresh', () => registry.restore()),
  );

  return {
    registry,
    ...(context.extensionMode === vscode.ExtensionMode.Test
      ? { testing: { setPrompts: (p: SignInPrompts | undefined) => void (prompts = p ?? inputBoxPrompts) } }
      : {}),
  };
}

export function deactivate(): void {
  // Everything is released through context.subscriptions.
}
