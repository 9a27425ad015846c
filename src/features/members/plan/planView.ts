/**
 * The Plan view: the plan on show, grouped by action, one checkbox per change. Unticking a change leaves it out;
 * a section's or a conflict's checkbox includes or leaves out all of its changes. Conflicting rows' changes start
 * unticked. Rows of the file the plan could not plan have a section of their own, each with its problem and a link
 * to its line; a change that grants power (an elevation) says what it grants. Nothing here sends anything: Apply
 * (the view's title) does.
 */
import * as vscode from 'vscode';
import { count } from '../../../shared/format';
import { plain } from '../../../shared/plainText';
import { elevationsOf, planElevations } from './core/elevation';
import { allChanges, type Conflict, type FilePlan, type PlanChange, type SkippedRow } from './core/model';
import { problemMessage } from './editor/problemText';
import type { PlanStore, ShownPlan } from './planStore';
import { changeText, conflictText, elevationsText } from './planWords';
import { TreeChanges } from '../../../views/treeChanges';

export const PLAN_VIEW = 'portal.plan';

type SectionKey = 'skipped' | 'new' | 'fields' | 'groups' | 'disabled' | 'absent' | 'conflicts';
type ChangeSection = Exclude<SectionKey, 'conflicts' | 'skipped'>;

export type PlanNode =
  | { readonly kind: 'section'; readonly key: SectionKey }
  | { readonly kind: 'change'; readonly change: PlanChange; readonly conflict: boolean }
  | { readonly kind: 'conflict'; readonly conflict: Conflict }
  | { readonly kind: 'skipped'; readonly skipped: SkippedRow }
  /** The rows of a long section not listed, counted. */
  | { readonly kind: 'more'; readonly key: SectionKey; readonly hidden: number };

/**
 * Rows a section lists at most. A plan of a large file has hundreds of thousands of changes, which no one reads in a
 * tree and whose rows would hold the editor while they are drawn. The rows that most need reading (a change that
 * grants power, a delete for good) are listed first, so they are never among those left unlisted; the rest are
 * counted in a last row, and every change stays in the plan, its counts and the Apply confirmation.
 */
export const SECTION_ROWS = 1000;

/** A long section's rows: its urgent ones first, then the rest, up to SECTION_ROWS, in their order. */
function listed<T>(items: readonly T[], urgent: (item: T) => boolean): { shown: T[]; hidden: number } {
  if (items.length <= SECTION_ROWS) return { shown: [...items], hidden: 0 };
  const picked = new Set<number>();
  for (let i = 0; i < items.length && picked.size < SECTION_ROWS; i++) if (urgent(items[i] as T)) picked.add(i);
  for (let i = 0; i < items.length && picked.size < SECTION_ROWS; i++) picked.add(i);
  const shown = [...picked].sort((a, b) => a - b).map((i) => items[i] as T);
  return { shown, hidden: items.length - shown.length };
}

function sectionChanges(plan: FilePlan, key: ChangeSection): readonly PlanChange[] {
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

function sectionLabel(key: SectionKey, plan: FilePlan): string {
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

function sectionSize(plan: FilePlan, key: SectionKey): number {
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
/** The row standing for a long section's rows not listed. */
function moreItem(hidden: number): vscode.TreeItem {
  const item = new vscode.TreeItem(
    vscode.l10n.t('… and {0} more, not listed here', count(hidden)),
    vscode.TreeItemCollapsibleState.None,
  );
  item.tooltip = vscode.l10n.t(
    'Only the first {0} rows of a section are listed, every change that grants power or deletes for good among them. The rest are in the plan all the same: its counts, the Apply confirmation and the report include them.',
    count(SECTION_ROWS),
  );
  item.iconPath = new vscode.ThemeIcon('ellipsis');
  item.contextValue = 'plan.more';
  return item;
}

/** A group's friendly name (its name without one) by id, as the plan read them. */
function groupNames(plan: FilePlan | undefined): (id: number) => string {
  const names = new Map((plan?.groups ?? []).map((g) => [g.id, g.friendlyName || g.name]));
  return (id) => names.get(id) ?? `#${id}`;
}

const isPermanent = (c: PlanChange): boolean => (c.kind === 'absent' || c.kind === 'uncreate') && c.permanent;

const checkbox = (on: boolean) => (on ? vscode.TreeItemCheckboxState.Checked : vscode.TreeItemCheckboxState.Unchecked);

export class PlanView implements vscode.TreeDataProvider<PlanNode>, vscode.Disposable {
  private readonly changed = new TreeChanges<PlanNode>();
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
    if (node.kind === 'skipped' || node.kind === 'more' || node.key === 'skipped') return [];
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
    const key = node.key;
    const more = (hidden: number): PlanNode[] => (hidden ? [{ kind: 'more', key, hidden }] : []);
    if (key === 'conflicts') {
      const conflicts = listed(plan.conflicts, () => false);
      return [
        ...conflicts.shown.map((conflict): PlanNode => ({ kind: 'conflict', conflict })),
        ...more(conflicts.hidden),
      ];
    }
    if (key === 'skipped') {
      const rows = listed(plan.skipped ?? [], () => false);
      return [...rows.shown.map((skipped): PlanNode => ({ kind: 'skipped', skipped })), ...more(rows.hidden)];
    }
    const conflicting = new Set(plan.conflicts.flatMap((c) => c.changeIds));
    const names = groupNames(plan);
    const changes = listed(sectionChanges(plan, key), (c) => isPermanent(c) || elevationsOf(c, names).length > 0);
    return [
      ...changes.shown.map((change): PlanNode => ({ kind: 'change', change, conflict: conflicting.has(change.id) })),
      ...more(changes.hidden),
    ];
  }

  getTreeItem(node: PlanNode): vscode.TreeItem {
    const shown = this.store.plan;
    const leftOut = shown?.leftOut ?? new Set<string>();
    const included = (ids: readonly string[]) => ids.length > 0 && ids.every((id) => !leftOut.has(id));
    if (node.kind === 'skipped') return skippedItem(node.skipped, shown?.file);
    if (node.kind === 'more') return moreItem(node.hidden);
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
    const groupName = groupNames(this.store.plan?.plan);
    const item = new vscode.TreeItem(plain(c.username), vscode.TreeItemCollapsibleState.None);
    item.id = c.id;
    const grants = elevationsOf(c, groupName);
    const text = changeText(c, groupName);
    const marked = grants.length ? vscode.l10n.t('ELEVATION, grants {0}: {1}', elevationsText(grants), text) : text;
    item.description = conflict ? vscode.l10n.t('{0} (conflict)', marked) : marked;
    const line = this.lineOf(c);
    item.tooltip = line !== undefined ? vscode.l10n.t('Line {0}: {1}', line + 1, item.description) : item.description;
    item.checkboxState = checkbox(!leftOut.has(c.id));
    const permanent = isPermanent(c);
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
    this.view.description = shown?.proposedInChat ? vscode.l10n.t('Proposed in chat') : undoTitleOf(shown);
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
      undoTitleOf(shown) !== undefined ? `${undoTitleOf(shown)}.` : '',
      shown.proposedInChat
        ? vscode.l10n.t('Proposed in chat: a language model wrote the rows of this plan. Check every change.')
        : '',
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
function rowsText(plan: FilePlan): string {
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

function elevationSummary(plan: FilePlan, chosen: readonly PlanChange[]): string {
  const n = planElevations(plan, chosen).length;
  return n ? vscode.l10n.t('Changes that grant more power: {0}.', n) : '';
}

/** An undo says what it puts back ("Undo "Offboard 3…" for keiko.garcia") where the view's title is read. */
function undoTitleOf(shown: ShownPlan | undefined): string | undefined {
  return shown?.plan.undoOf !== undefined && shown.plan.title !== undefined ? plain(shown.plan.title) : undefined;
}
