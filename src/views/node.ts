/**
 * A row of one of the three views. Commands receive these objects as their argument (they are Vouched, so only
 * ours are honoured), and each names what it shows with a Ref.
 */
import type * as vscode from 'vscode';
import type { TreeKey } from '../shared/keys';
import { Vouched } from '../ui/vouched';

export abstract class PortalTreeNode extends Vouched {
  /** Stable id for VS Code (keeps expansion state across refreshes) and the cache key of this node's children. */
  abstract readonly key: TreeKey;
  abstract readonly portalId: string;
  /** The node whose children include this one; refreshing a child refreshes through its parent. */
  abstract readonly parent: PortalTreeNode | undefined;
  abstract treeItem(): vscode.TreeItem;
}
