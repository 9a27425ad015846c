/** Wires the layers together; nothing else happens here. */
import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';
import { createAuth, registerAuthCommands } from './auth/register';
import type { PortalRegistry } from './auth/portalRegistry';
import type { StoredCredentials } from './auth/credentialStore';
import { registerApplications, type ApplicationsFeature } from './features/applications/register';
import { registerChat, type ChatFeature } from './features/chat/register';
import { registerExplorer, type ExplorerFeature } from './features/explorer/register';
import { registerGuests } from './features/guests/register';
import { registerMembers, type MembersFeature } from './features/members/register';
import { openWalkthroughOnFirstRun } from './features/walkthrough/register';
import { registerRecords, type RecordsFeature } from './features/records/register';
import { registerReview, type ReviewFeature } from './features/review/register';
import { FormHost } from './forms/formHost';
import { registerCommand, type CommandEnv } from './ui/commands';
import { contextKeyValue } from './ui/contextKeys';
import { createLog } from './ui/log';
import { plainUi } from './ui/plainUi';
import { UiSlot, type Ui } from './ui/ui';
import { VscodeUi } from './ui/vscodeUi';

/**
 * The handle the in-VS-Code tests drive the extension with. It exists only in development and test builds, and there
 * only under test (ExtensionMode.Test): any extension may call `getExtension(id).activate()` and gets what activate()
 * returns, and this would give it the registry, so every portal's client, tokens and stored secrets, with no
 * confirmation and no consent. The packaged extension exports nothing.
 */
export interface PortalTestApi {
  readonly registry: PortalRegistry;
  readonly testing: {
    /** Every question and message goes to this Ui instead of VS Code's (undefined: VS Code's again). */
    useUi(ui: Ui | undefined): void;
    /** What SecretStorage holds for a portal: only the extension can read it. */
    readStoredCredentials(portalId: string): Promise<StoredCredentials | undefined>;
    /** Writes SecretStorage as another VS Code window signed in to the same portal would. */
    storeCredentials(portalId: string, credentials: StoredCredentials): Promise<void>;
    readonly explorer: ExplorerFeature;
    readonly members: MembersFeature;
    readonly applications: ApplicationsFeature;
    readonly records: RecordsFeature;
    readonly chat: ChatFeature;
    readonly review: ReviewFeature;
    readonly forms: FormHost;
    /** The value the extension last gave a context key (what a walkthrough step's `onContext:` waits for). */
    contextKey(key: string): boolean | undefined;
  };
}

/**
 * Replaced by esbuild.js: true in development and test builds, false in the production bundle, where the test
 * handle below is unreachable and esbuild leaves it out (a unit test checks the bundle).
 */
declare const PORTAL_TEST_HOOKS: boolean;

export async function activate(context: vscode.ExtensionContext): Promise<PortalTestApi | undefined> {
  const activatedAt = performance.now();
  const version = String((context.extension.packageJSON as { version?: unknown }).version ?? '0.0.0');
  // The pure modules (shared/, record documents, form summaries) translate with @vscode/l10n: same bundle as vscode.l10n.
  l10n.config({ contents: vscode.l10n.bundle ?? {} });
  const log = createLog();
  const ui = new UiSlot(new VscodeUi(), plainUi);
  const auth = await createAuth(context, { log, ui: ui.get, version });
  const commands: CommandEnv = { ui: ui.get, log, showSessions: (u) => auth.showSessions(u) };
  const forms = new FormHost(context, { log, ui: ui.get });
  const { settings } = auth;
  const deps = { auth, commands, forms, settings };
  // The Explorer is made next: its selection is read only when a command runs.
  const records = registerRecords(context, {
    ...deps,
    selected: () => explorer.selected(),
    refreshExplorer: () => explorer.refresh(),
  });
  const explorer = registerExplorer(context, { ...deps, records, activatedAt, access: () => members.store });
  const members = registerMembers(context, deps);
  const applications = registerApplications(context, { ...deps, records });
  registerGuests(context, deps);
  const review = registerReview(context, deps, { access: members.store, plans: members.plans });
  const chat = registerChat(context, {
    registry: auth.registry,
    selected: () => explorer.selected(),
    store: members.store,
    proposals: members.proposals,
    files: records.files,
  });
  registerAuthCommands(context, commands, auth);
  void openWalkthroughOnFirstRun(context);
  context.subscriptions.push(
    log,
    forms,
    explorer.onDidSelectAccount((account) => members.show(account)),
    // A write on members changes counts the Explorer shows (a group's members, the organisation's figures).
    members.onDidChangeMembers((account) => explorer.membersChanged(account)),
    // "Refresh All Views" re-reads the portal list, then reloads every view from the portals.
    registerCommand(commands, 'portal.refresh', async () => {
      await auth.registry.restore();
      for (const view of [explorer, members, applications]) view.refresh();
    }),
  );
  if (!PORTAL_TEST_HOOKS || context.extensionMode !== vscode.ExtensionMode.Test) return undefined;
  return {
    registry: auth.registry,
    testing: {
      useUi: (u: Ui | undefined) => ui.use(u),
      readStoredCredentials: (portalId: string) => auth.store.get(portalId),
      storeCredentials: (portalId: string, credentials: StoredCredentials) => auth.store.set(portalId, credentials),
      ...{ explorer, members, applications, records, chat, review, forms },
      contextKey: contextKeyValue,
    },
  };
}

export function deactivate(): void {
  // Everything is released through context.subscriptions.
}
