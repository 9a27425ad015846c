/**
 * The one way a row becomes a TreeItem. Labels, descriptions and tooltips render `$(icon)` syntax in VS Code's
 * tree, and most of them quote the portal, so every text passes through plain() here; an icon is given by name.
 */
import * as vscode from 'vscode';
import type { TreeKey } from '../shared/keys';
import { plain } from '../shared/plainText';

interface ItemSpec {
  readonly key: TreeKey;
  readonly label: string;
  /** Whether the row has children; 'none' for leaves. */
  readonly collapsible: 'collapsed' | 'none';
  /** For `when` clauses in package.json menus. */
  readonly contextValue: string;
  readonly description?: string;
  /** Omitted when it is built on hover (resolveTreeItem). */
  readonly tooltip?: string;
  readonly icon: string;
  /** A theme colour id for the icon, e.g. 'disabledForeground'. */
  readonly iconColor?: string;
  readonly command?: vscode.Command;
}

export function treeItem(spec: ItemSpec): vscode.TreeItem {
  const state =
    spec.collapsible === 'collapsed' ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None;
  const item = new vscode.TreeItem(plain(spec.label), state);
  item.id = spec.key;
  item.contextValue = spec.contextValue;
  if (spec.description !== undefined) item.description = plain(spec.description);
  if (spec.tooltip !== undefined) item.tooltip = plainTooltip(spec.tooltip);
  item.iconPath = new vscode.ThemeIcon(spec.icon, spec.iconColor ? new vscode.ThemeColor(spec.iconColor) : undefined);
  if (spec.command) item.command = spec.command;
  return item;
}

/** A tooltip of several lines, as plain text. */
export function plainTooltip(lines: string): string {
  return plain(lines, { multiline: true });
}
