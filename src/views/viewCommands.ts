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
  /** The view's refresh is the title bar's only: rows have a refresh of their own. */
  wholeView = false,
): vscode.Disposable[] {
  const node = (value: unknown): PortalTreeNode | undefined => (value instanceof PortalTreeNode ? value : undefined);
  return [
    // From a node's inline button: that node; from the view title or the palette: the whole view. VS Code hands a
    // title action the focused row too, so a view whose rows refresh by another command ignores it.
    registerCommand(env, `portal.${name}.refresh`, (run) => provider.refresh(wholeView ? undefined : node(run.node))),
    registerCommand(env, `portal.${name}.loadMore`, (run) =>
      run.node instanceof LoadMoreNode || run.node instanceof ErrorNode ? provider.loadMore(run.node) : undefined,
    ),
    registerCommand(env, `portal.${name}.retry`, (run) =>
      run.node instanceof ErrorNode ? provider.retry(run.node) : provider.refresh(),
    ),
  ];
}
