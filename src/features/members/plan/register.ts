/**
 * "Membership as code", the VS Code side: members files recognised in the editor (Problems panel, hover, CodeLens),
 * the Plan view and its commands, and, at start, the offer to resume or undo an apply a reload or crash cut short.
 */
import type { SettingsWriter } from '../../../ui/settingsWriter';
import * as vscode from 'vscode';
import type { UndoChange } from '../../../ui/undoOffer';
import { undoChange } from './changeHistory';
import type { PortalRegistry } from '../../../auth/portalRegistry';
import type { AccountRef } from '../../../shared/refs';
import type { CommandEnv } from '../../../ui/commands';
import { applyShown, reportsFolder, type ApplyDeps } from './applyRun';
import type { Ui } from '../../../ui/ui';
import type { ShownPlan } from './planStore';
import { readGroups } from './core/portalState';
import { excludeFolder } from './editor/membersDocument';
import { MembersDiagnostics } from './editor/diagnostics';
import { HeaderLens } from './editor/headerLens';
import { offerResume, registerPlanCommands } from './planCommands';
import { PlanStore } from './planStore';
import { PlanView } from './planView';
import { RowHover } from './editor/rowHover';

export interface PlanFeature {
  readonly store: PlanStore;
  readonly view: PlanView;
  readonly diagnostics: MembersDiagnostics;
  /** The extension's storage folder, where journals and reports are kept. */
  readonly storage: string;
  /** What the start-up check offered: the question's text, or undefined when no apply was interrupted. */
  readonly startupOffer: Promise<string | undefined>;
  /** Undoes a journaled change from its summary's Undo button: its plan shown, then applied after confirmation. */
  readonly undo: UndoChange;
  /** Applies a plan on show after its one confirmation, as the Plan view's Apply does. */
  readonly apply: (ui: Ui, shown: ShownPlan) => Promise<boolean>;
}

const MEMBERS_FILES: vscode.DocumentSelector = [
  { scheme: 'file', pattern: '**/*.csv' },
  { scheme: 'untitled', language: 'csv' },
];

export function registerPlan(
  context: vscode.ExtensionContext,
  env: CommandEnv,
  registry: PortalRegistry,
  settings: SettingsWriter,
  reload: (account: AccountRef) => void,
): PlanFeature {
  const store = new PlanStore(context.globalState);
  const storage = context.globalStorageUri.fsPath;
  excludeFolder(reportsFolder(storage));
  const undo: UndoChange = (ui, applyId) => undoChange(ui, deps, applyId);
  const deps: ApplyDeps = { registry, store, storage, memento: context.globalState, reload, undo };
  const view = new PlanView(store);
  // The group list of a file's organisation, once, when the file's organisation is known and signed in to: unknown
  // group columns are then reported as the file is typed, before any plan.
  const diagnostics = new MembersDiagnostics(store, async (uri) => {
    const account = store.accountOf(uri);
    const client = account ? registry.get(account.portalId)?.client : undefined;
    return account && client ? readGroups(client, account.accountId) : undefined;
  });
  context.subscriptions.push(
    store,
    view,
    diagnostics,
    vscode.languages.registerCodeLensProvider(MEMBERS_FILES, new HeaderLens()),
    vscode.languages.registerHoverProvider(MEMBERS_FILES, new RowHover(store)),
    ...registerPlanCommands(env, deps, settings),
  );
  const startupOffer = new Promise<string | undefined>((resolve) => {
    offerResume(env.ui(), deps, false, resolve).catch((error: unknown) => {
      env.log.warn(`plan: the check for an interrupted apply failed: ${String(error)}`);
      resolve(undefined);
    });
  });
  const apply = (ui: Ui, shown: ShownPlan) => applyShown(ui, deps, shown);
  return { store, view, diagnostics, storage, startupOffer, undo, apply };
}
