/**
 * The Plan view: the plan on show, grouped by action, one checkbox per change. Unticking a change leaves it out;
 * a section's or a conflict's checkbox includes or leaves out all of its changes. Conflicting rows' changes start
 * unticked. Rows of the file the plan could not plan have a section of their own, each with its problem and a link
 * to its line; a change that grants power (an elevation) says what it grants. Nothing here sends anything: Apply
 * (the view's title) does.
 */
import * as vscode from 'vscode';
import { plain } from '../../../shared/plainText';
import { elevationsOf, planElevations } from './core/elevation';
import { allChanges, type Conflict, type Plan, type PlanChange, type SkippedRow } from './core/model';
import { problemMessage } from './editor/problemText';
import type { PlanStore, ShownPlan } from './planStore';
import { changeText, conflictText, elevationsText } from './planWords';

export const PLAN_VIEW = 'portal.plan';

type SectionKey = 'skipped' | 'new' | 'fields' | 'groups' | 'disabled' | 'absent' | 'conflicts';
type ChangeSection = Exclude<SectionKey, 'conflicts' | 'skipped'>;

export type PlanNode =
  | { readonly kind: 'section'; readonly key: SectionKey }
  | { readonly kind: 'change'; readonly change: PlanChange; readonly conflict: boolean }
  | { readonly kind: 'conflict'; readonly conflict: Conflict }
  | { readonly kind: 'skipped'; readonly skipped: SkippedRow };

function sectionChanges(plan: Plan, key: ChangeSection): readonly PlanChange[] {
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
  switch (key) {
    case 'new':
      return plan.origin === 'file' ? vscode.l10n.t('New members') : vscode.l10n.t('Members brought back');
    case 'fields':
      return vscode.l10n.t('Changed fields');
    case 'groups':
      return vscode.l10n.t('Group permissions added, changed or removed');
    case 'disabled':
      return vscode.l10n.t('Members disabled');
    case 'absent':
      return plan.origin === 'file' ? vscode.l10n.t('Members not in the file') : vscode.l10n.t('Members removed');
    case 'conflicts':
      return vscode.l10n.t('Conflicts: changed on the portal after the export');
    case 'skipped':
      return vscode.l10n.t('Rows not planned: fix them and plan again');
  }
}

const SECTIONS: readonly SectionKey[] = ['skipped', 'new', 'fields', 'groups', 'disabled', 'absent', 'conflicts'];

function sectionSize(plan: Plan, key: SectionKey): number {
  if (key === 'conflicts') return plan.conflicts.length;
  if (key === 'skipped') return plan.skipped?.length ?? 0;
  return sectionChanges(plan, key).length;
}

/** A skipped row: its username (or line), its first problem, a click opens its line. */
function skippedItem(row: SkippedRow, file: vscode.Uri | undefined): vscode.TreeItem {
  const label = row.username ? plain(row.username) : vscode.l10n.t('line {0}', row.line + 1);
  const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.None);
  item.id = `skipped:${row.row}`;
  const messages = row.problems.map(problemMessage);
  item.description = vscode.l10n.t('line {0}: {1}', row.line + 1, messages[0] ?? '');
  item.tooltip = [vscode.l10n.t('Line {0} is not planned:', row.line + 1), ...messages].join('\n');
  item.iconPath = new vscode.ThemeIcon('error');
  item.contextValue = 'plan.skipped';
  if (file)
    item.command = {
      command: 'vscode.open',
      title: vscode.l10n.t('Go to the Row'),
      arguments: [file, { selection: new vscode.Range(row.line, 0, row.line, 0) }],
    };
  return item;
}
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
    if (node.kind === 'skipped' || node.key === 'skipped') return [];
    if (node.key === 'conflicts') return shown.plan.conflicts.flatMap((c) => c.changeIds);
    return sectionChanges(shown.plan, node.key).map((c) => c.id);
  }

  getChildren(node?: PlanNode): PlanNode[] {
    const shown = this.store.plan;
    if (!shown) return [];
    const plan = shown.plan;
    if (!node) {
      return SECTIONS.filter((key) => sectionSize(plan, key) > 0).map((key) => ({ kind: 'section', key }));
    }
    if (node.kind !== 'section') return [];
    if (node.key === 'conflicts') return plan.conflicts.map((conflict) => ({ kind: 'conflict', conflict }));
    if (node.key === 'skipped') return (plan.skipped ?? []).map((skipped) => ({ kind: 'skipped', skipped }));
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
    if (node.kind === 'skipped') return skippedItem(node.skipped, shown?.file);
    if (node.kind === 'section') {
      const ids = this.idsOf(node);
      const item = new vscode.TreeItem(
        shown ? sectionLabel(node.key, shown.plan) : '',
        vscode.TreeItemCollapsibleState.Expanded,
      );
      item.id = `section:${node.key}`;
      item.description = String(shown ? sectionSize(shown.plan, node.key) : 0);
      if (node.key !== 'skipped') item.checkboxState = checkbox(included(ids));
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
    return this.changeItem(node.change, node.conflict, leftOut);
  }

  private changeItem(c: PlanChange, conflict: boolean, leftOut: ReadonlySet<string>): vscode.TreeItem {
    const plan = this.store.plan?.plan;
    const names = new Map((plan?.groups ?? []).map((g) => [g.id, g.friendlyName || g.name]));
    const groupName = (id: number) => names.get(id) ?? `#${id}`;
    const item = new vscode.TreeItem(plain(c.username), vscode.TreeItemCollapsibleState.None);
    item.id = c.id;
    const grants = elevationsOf(c, groupName);
    const text = changeText(c, groupName);
    const marked = grants.length ? vscode.l10n.t('ELEVATION, grants {0}: {1}', elevationsText(grants), text) : text;
    item.description = conflict ? vscode.l10n.t('{0} (conflict)', marked) : marked;
    const line = this.lineOf(c);
    item.tooltip = line !== undefined ? vscode.l10n.t('Line {0}: {1}', line + 1, item.description) : item.description;
    item.checkboxState = checkbox(!leftOut.has(c.id));
    const permanent = (c.kind === 'absent' || c.kind === 'uncreate') && c.permanent;
    const icon = conflict ? 'warning' : permanent ? 'trash' : grants.length ? 'shield' : 'circle-small';
    item.iconPath = new vscode.ThemeIcon(icon);
    item.contextValue = permanent ? 'plan.change.permanent' : grants.length ? 'plan.change.elevation' : 'plan.change';
    return item;
  }

  /** The zero-based line of a change's row in the file, when the plan knows it. */
  private lineOf(c: PlanChange): number | undefined {
    return c.row === undefined ? undefined : this.store.plan?.plan.source?.rowLines[c.row - 1];
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
    const all = allChanges(shown.plan);
    const chosen = all.filter((c) => !shown.leftOut.has(c.id));
    const label = plain(shown.account.label);
    const parts = [
      shown.stale ? vscode.l10n.t('OUT OF DATE: the file changed after this plan. Run Plan Changes… again.') : '',
      all.length === 0
        ? vscode.l10n.t('{0}: nothing to change.', label)
        : vscode.l10n.t(
            '{0}: {1} of {2} changes chosen. Nothing is sent until Apply.',
            label,
            chosen.length,
            all.length,
          ),
      rowsText(shown.plan),
      elevationSummary(shown.plan, chosen),
    ];
    return parts.filter((p) => p !== '').join(' ');
  }
}

/** How the plan accounts for the file's rows, when it came from one. */
function rowsText(plan: Plan): string {
  const source = plan.source;
  if (!source) return '';
  const skipped = plan.skipped?.length ?? 0;
  return skipped
    ? vscode.l10n.t(
        'Rows in the file: {0}; already matching: {1}; NOT PLANNED: {2}.',
        source.rows,
        source.unchanged,
        skipped,
      )
    : vscode.l10n.t('Rows in the file: {0}; already matching: {1}.', source.rows, source.unchanged);
}

function elevationSummary(plan: Plan, chosen: readonly PlanChange[]): string {
  const n = planElevations(plan, chosen).length;
  return n ? vscode.l10n.t('Changes that grant more power: {0}.', n) : '';
}
