/**
 * The Plan view: the plan on show, grouped by action, one checkbox per change. Unticking a change leaves it out;
 * a section's or a conflict's checkbox includes or leaves out all of its changes. Conflicting rows' changes start
 * unticked. Nothing here sends anything: Apply (the view's title) does.
 */
import * as vscode from 'vscode';
import { plain } from '../../../shared/plainText';
import type { Conflict, Plan, PlanChange } from './core/model';
import type { PlanStore, ShownPlan } from './planStore';
import { changeText, conflictText } from './planWords';

export const PLAN_VIEW = 'portal.plan';

type SectionKey = 'new' | 'fields' | 'groups' | 'disabled' | 'absent' | 'conflicts';

export type PlanNode =
  | { readonly kind: 'section'; readonly key: SectionKey }
  | { readonly kind: 'change'; readonly change: PlanChange; readonly conflict: boolean }
  | { readonly kind: 'conflict'; readonly conflict: Conflict };

function sectionChanges(plan: Plan, key: Exclude<SectionKey, 'conflicts'>): readonly PlanChange[] {
  switch (key) {
    case 'new':
      return plan.newMembers;
    case 'fields':
      return plan.fieldChanges;
    case 'groups':
      return plan.groupChanges;
    case 'disabled':
      return plan.disabled;
    case 'absent':
      return plan.absent;
  }
}

function sectionLabel(key: SectionKey, plan: Plan): string {
  const t = vscode.l10n.t;
  switch (key) {
    case 'new':
      return plan.origin === 'file' ? t('New members') : t('Members brought back');
    case 'fields':
      return t('Changed fields');
    case 'groups':
      return t('Group permissions added, changed or removed');
    case 'disabled':
      return t('Members disabled');
    case 'absent':
      return plan.origin === 'file' ? t('Members not in the file') : t('Members removed');
    case 'conflicts':
      return t('Conflicts: changed on the portal after the export');
  }
}

const SECTIONS: readonly SectionKey[] = ['new', 'fields', 'groups', 'disabled', 'absent', 'conflicts'];
const checkbox = (on: boolean) => (on ? vscode.TreeItemCheckboxState.Checked : vscode.TreeItemCheckboxState.Unchecked);

export class PlanView implements vscode.TreeDataProvider<PlanNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<PlanNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  readonly view: vscode.TreeView<PlanNode>;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly store: PlanStore) {
    this.view = vscode.window.createTreeView(PLAN_VIEW, { treeDataProvider: this, manageCheckboxStateManually: true });
    this.disposables.push(
      this.view,
      this.changed,
      store.onDidChange(() => this.refresh()),
      this.view.onDidChangeCheckboxState((e) => {
        for (const [node, state] of e.items)
          this.store.include(this.idsOf(node), state === vscode.TreeItemCheckboxState.Checked);
      }),
    );
  }

  /** The change ids a row stands for: its own, its section's, or its conflict's. */
  idsOf(node: PlanNode): string[] {
    const shown = this.store.plan;
    if (!shown) return [];
    if (node.kind === 'change') return [node.change.id];
    if (node.kind === 'conflict') return [...node.conflict.changeIds];
    if (node.key === 'conflicts') return shown.plan.conflicts.flatMap((c) => c.changeIds);
    return sectionChanges(shown.plan, node.key).map((c) => c.id);
  }

  getChildren(node?: PlanNode): PlanNode[] {
    const shown = this.store.plan;
    if (!shown) return [];
    const plan = shown.plan;
    if (!node) {
      return SECTIONS.filter((key) =>
        key === 'conflicts' ? plan.conflicts.length > 0 : sectionChanges(plan, key).length > 0,
      ).map((key) => ({ kind: 'section', key }));
    }
    if (node.kind !== 'section') return [];
    if (node.key === 'conflicts') return plan.conflicts.map((conflict) => ({ kind: 'conflict', conflict }));
    const conflicting = new Set(plan.conflicts.flatMap((c) => c.changeIds));
    return sectionChanges(plan, node.key).map((change) => ({
      kind: 'change',
      change,
      conflict: conflicting.has(change.id),
    }));
  }

  getTreeItem(node: PlanNode): vscode.TreeItem {
    const shown = this.store.plan;
    const leftOut = shown?.leftOut ?? new Set<string>();
    const included = (ids: readonly string[]) => ids.length > 0 && ids.every((id) => !leftOut.has(id));
    if (node.kind === 'section') {
      const ids = this.idsOf(node);
      const n = node.key === 'conflicts' ? (shown?.plan.conflicts.length ?? 0) : ids.length;
      const item = new vscode.TreeItem(
        shown ? sectionLabel(node.key, shown.plan) : '',
        vscode.TreeItemCollapsibleState.Expanded,
      );
      item.id = `section:${node.key}`;
      item.description = String(n);
      item.checkboxState = checkbox(included(ids));
      item.contextValue = `plan.section.${node.key}`;
      return item;
    }
    if (node.kind === 'conflict') {
      const c = node.conflict;
      const item = new vscode.TreeItem(plain(c.username), vscode.TreeItemCollapsibleState.None);
      item.id = c.id;
      item.description = conflictText(c);
      item.tooltip = item.description;
      item.iconPath = new vscode.ThemeIcon('warning');
      item.checkboxState = checkbox(included(c.changeIds));
      item.contextValue = 'plan.conflict';
      return item;
    }
    const c = node.change;
    const item = new vscode.TreeItem(plain(c.username), vscode.TreeItemCollapsibleState.None);
    item.id = c.id;
    const text = changeText(c);
    item.description = node.conflict ? vscode.l10n.t('{0} (conflict)', text) : text;
    item.tooltip = c.row !== undefined ? vscode.l10n.t('Row {0}: {1}', c.row, item.description) : item.description;
    item.checkboxState = checkbox(!leftOut.has(c.id));
    const permanent = (c.kind === 'absent' || c.kind === 'uncreate') && c.permanent;
    item.iconPath = new vscode.ThemeIcon(node.conflict ? 'warning' : permanent ? 'trash' : 'circle-small');
    item.contextValue = permanent ? 'plan.change.permanent' : 'plan.change';
    return item;
  }

  refresh(): void {
    const shown: ShownPlan | undefined = this.store.plan;
    this.view.message = shown ? this.summary(shown) : undefined;
    this.changed.fire(undefined);
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }

  private summary(shown: ShownPlan): string {
    const all = [
      ...shown.plan.newMembers,
      ...shown.plan.fieldChanges,
      ...shown.plan.groupChanges,
      ...shown.plan.disabled,
      ...shown.plan.absent,
    ];
    const chosen = all.filter((c) => !shown.leftOut.has(c.id)).length;
    if (all.length === 0) return vscode.l10n.t('{0}: nothing to change.', plain(shown.account.label));
    return vscode.l10n.t(
      '{0}: {1} of {2} changes chosen. Nothing is sent until Apply.',
      plain(shown.account.label),
      chosen,
      all.length,
    );
  }
}
