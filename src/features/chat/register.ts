/**
 * Chat's tools: registered with VS Code's language model API only while a portal is signed in and the user's
 * `portal.chat.tools` setting is on, and unregistered the moment either stops. The context key of the same name
 * hides the contributed tools from chat meanwhile.
 */
import * as vscode from 'vscode';
import type { PortalRegistry } from '../../auth/portalRegistry';
import { userValue } from '../../auth/settings';
import type { Ref } from '../../shared/refs';
import { setContextKey } from '../../ui/contextKeys';
import type { AccessHandle, ChatHandle, FileFinder, PlanProposals } from '../contracts';
import { findMembersTool, memberAccessTool, whoCanAccessTool } from './accessTools';
import { listToolCalls, ToolCallLog } from '../../engine/readLog';
import { findFileRecordsTool, overviewTool } from './portalTools';
import { proposeTool } from './proposeTool';
import { Targets } from './target';

export interface ChatFeature extends ChatHandle {
  /** The tools by name, as registered (tests call prepareInvocation on them). */
  readonly tools: ReadonlyMap<string, vscode.LanguageModelTool<object>>;
  /** Whether the tools are registered now. */
  registered(): boolean;
}

export interface ChatDeps {
  readonly registry: PortalRegistry;
  /** The Explorer's selected row: its organisation is the one a call means when it names none. */
  readonly selected: () => Ref | undefined;
  readonly store: AccessHandle;
  readonly proposals: PlanProposals;
  readonly files: FileFinder;
}

const SETTING = 'chat.tools';

export function registerChat(context: vscode.ExtensionContext, deps: ChatDeps): ChatFeature {
  const storage = context.globalStorageUri.fsPath;
  const env = { targets: new Targets(deps.registry, deps.selected), log: new ToolCallLog(storage) };
  const tools = new Map<string, vscode.LanguageModelTool<object>>([
    ['portal_whoCanAccessGroup', whoCanAccessTool(env, deps.store)],
    ['portal_memberAccess', memberAccessTool(env, deps.store)],
    ['portal_findMembers', findMembersTool(env, deps.store)],
    ['portal_findFileRecords', findFileRecordsTool(env, deps.files, deps.store)],
    ['portal_organisationOverview', overviewTool(env, deps.store)],
    ['portal_proposeMemberChanges', proposeTool(env, deps.proposals, deps.store)],
  ]);
  let registrations: vscode.Disposable[] | undefined;
  const update = () => {
    const on =
      userValue<unknown>('portal', SETTING) !== false && deps.registry.list().some((c) => c.client !== undefined);
    if (on && !registrations) registrations = [...tools].map(([name, tool]) => vscode.lm.registerTool(name, tool));
    if (!on && registrations) {
      for (const r of registrations) r.dispose();
      registrations = undefined;
    }
    void setContextKey('portal.chat.tools', on);
  };
  update();
  context.subscriptions.push(
    deps.registry.onDidChange(update),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(`portal.${SETTING}`)) update();
    }),
    { dispose: () => registrations?.forEach((r) => r.dispose()) },
  );
  return { tools, registered: () => registrations !== undefined, listCalls: () => listToolCalls(storage) };
}
