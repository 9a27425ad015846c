/** Refresh, "Load more…" and retry of one view: the commands every paged view has. */
import type * as vscode from 'vscode';
import type { ViewName } from '../shared/keys';
import { registerCommand, type CommandEnv } from '../ui/commands';
import { PortalTreeNode } from './node';
import type { PagedTreeProvider } from './pagedProvider';
import { ErrorNode, LoadMoreNode } from './rows';

export function registerViewCommands(
  env: CommandEnv,
  name: ViewName,
  provider: PagedTreeProvider,
): vscode.Disposable[] {
  const node = (value: unknown): PortalTreeNode | undefined => (value instanceof PortalTreeNode ? value : undefined);
  return [
    // From a node's inline button: that node; from the view title or the palette: the whole view.
    registerCommand(env, `portal.${name}.refresh`, (run) => provider.refresh(node(run.node))),
    registerCommand(env, `portal.${name}.loadMore`, (run) =>
      run.node instanceof LoadMoreNode || run.node instanceof ErrorNode ? provider.loadMore(run.node) : undefined,
    ),
    registerCommand(env, `portal.${name}.retry`, (run) =>
      run.node instanceof ErrorNode ? provider.retry(run.node) : provider.refresh(),
    ),
  ];
}
