/**
 * Drives the extension's tree providers the way VS Code does (getChildren, then getTreeItem for each child),
 * and reads the rows as plain data. The node classes live in the extension's bundle, not in this one, so rows are
 * told apart by their contextValue, as menus do.
 */
import * as vscode from 'vscode';
import type { PortalTestApi } from '../../../src/extension';
import { portalKey } from '../../../src/shared/keys';
import { portalApi } from './extension';

export type Testing = PortalTestApi['testing'];
export type Provider = vscode.TreeDataProvider<unknown>;

export interface Row {
  node: unknown;
  label: string;
  description: string;
  contextValue: string;
  icon: string;
  collapsible: boolean;
  command: vscode.Command | undefined;
  id: string;
}

/** The extension's features as the tests drive them: providers, views and handles. */
export async function features(): Promise<Testing> {
  return (await portalApi()).testing;
}

/**
 * A portal: URI as if the extension had made it (opened it from a view) in this or an earlier session: only those
 * are read from the portal without a click.
 */
export async function madeByExtension(uri: vscode.Uri): Promise<vscode.Uri> {
  (await features()).records.fileSystem.mint(uri);
  return uri;
}

function labelOf(item: vscode.TreeItem): string {
  const l = item.label;
  return typeof l === 'string' ? l : (l?.label ?? '');
}

export async function rows(provider: Provider, parent?: unknown): Promise<Row[]> {
  const children = (await provider.getChildren(parent)) ?? [];
  const out: Row[] = [];
  for (const node of children) {
    const item = await provider.getTreeItem(node);
    out.push({
      node,
      label: labelOf(item),
      description: typeof item.description === 'string' ? item.description : '',
      contextValue: item.contextValue ?? '',
      icon: item.iconPath instanceof vscode.ThemeIcon ? item.iconPath.id : '',
      collapsible:
        item.collapsibleState !== undefined && item.collapsibleState !== vscode.TreeItemCollapsibleState.None,
      command: item.command,
      id: item.id ?? '',
    });
  }
  return out;
}

/** A row's tooltip as VS Code shows it on hover (resolveTreeItem fills in what the row left for later). */
export async function tooltipOf(provider: Provider, r: Row): Promise<string> {
  const item = await provider.getTreeItem(r.node);
  const resolved = provider.resolveTreeItem
    ? await provider.resolveTreeItem(item, r.node, new vscode.CancellationTokenSource().token)
    : item;
  const tip = resolved?.tooltip ?? item.tooltip;
  return typeof tip === 'string' ? tip : (tip?.value ?? '');
}

export function byLabel(list: Row[], label: string): Row {
  const row = list.find((r) => r.label === label);
  if (!row) throw new Error(`no row "${label}" among: ${list.map((r) => r.label).join(', ')}`);
  return row;
}

/** Clicks every "Load more…" until the list ends (bounded); returns the data rows. */
export async function loadAll(
  provider: Provider,
  parent: unknown,
  loadMoreCommand: string,
  maxPages = 200,
): Promise<Row[]> {
  let list = await rows(provider, parent);
  for (let i = 0; i < maxPages; i++) {
    const more = list.find((r) => r.contextValue === 'loadMore');
    if (!more) break;
    await vscode.commands.executeCommand(loadMoreCommand, more.node);
    list = await rows(provider, parent);
  }
  const failed = list.find((r) => r.contextValue.startsWith('error'));
  if (failed) throw new Error(`the list ended in an error row: ${failed.label}`);
  return unfold(
    provider,
    list.filter((r) => r.contextValue !== 'loadMore' && r.contextValue !== 'empty'),
  );
}

/** Replaces folded "1–100" range rows by the rows they hold (recursively, bounded). */
export async function unfold(provider: Provider, list: Row[], depth = 0): Promise<Row[]> {
  if (depth > 8) throw new Error('ranges nested too deep');
  const out: Row[] = [];
  for (const r of list) {
    if (r.contextValue === 'range') out.push(...(await unfold(provider, await rows(provider, r.node), depth + 1)));
    else out.push(r);
  }
  return out;
}

/** The Explorer's node for one portal. */
export async function portalRow(provider: Provider, portalId: string): Promise<Row> {
  const list = await rows(provider);
  const row = list.find((r) => r.id === portalKey('explorer', portalId));
  if (!row) throw new Error(`portal ${portalId} is not in the Explorer: ${list.map((r) => r.id).join(', ')}`);
  return row;
}

/** Walks labels from the portal down: path(['Acme Corporation', 'Engineering', 'src']). */
export async function walk(provider: Provider, portalId: string, labels: string[]): Promise<Row> {
  let row = await portalRow(provider, portalId);
  for (const label of labels) row = byLabel(await rows(provider, row.node), label);
  return row;
}

export async function setPageSize(size: number | undefined): Promise<void> {
  await vscode.workspace.getConfiguration('portal').update('pageSize', size, vscode.ConfigurationTarget.Global);
}

/** What a row names, by ids: the same shapes as src/shared/refs.ts, without the names. */
export type RowSpec =
  | { readonly kind: 'portal'; readonly portalId: string; readonly view?: 'explorer' | 'applications' }
  | { readonly kind: 'account'; readonly portalId: string; readonly accountId: number }
  | { readonly kind: 'group'; readonly portalId: string; readonly accountId: number; readonly groupId: number }
  | { readonly kind: 'member'; readonly portalId: string; readonly accountId: number; readonly username: string }
  | { readonly kind: 'application'; readonly portalId: string; readonly clientId: string };

function find(list: Row[], test: (ref: Record<string, unknown>) => boolean, what: string): Row {
  const row = list.find((r) => {
    const ref = (r.node as { ref?: Record<string, unknown> }).ref;
    return ref !== undefined && test(ref);
  });
  if (!row) throw new Error(`no row for ${what} among: ${list.map((r) => r.label).join(', ')}`);
  return row;
}

/**
 * The extension's own row for `spec`, found the way a person finds it (expanding the views), so a command run on
 * it is run as from that row's context menu. A member is looked for in the Members view of its organisation.
 */
export async function nodeOf(spec: RowSpec): Promise<unknown> {
  const t = await features();
  const explorer = t.explorer.provider as unknown as Provider;
  const what = JSON.stringify(spec);
  switch (spec.kind) {
    case 'portal': {
      const view = spec.view ?? 'explorer';
      const provider = (view === 'explorer' ? t.explorer.provider : t.applications.provider) as unknown as Provider;
      return byId(await rows(provider), portalKey(view, spec.portalId), what).node;
    }
    case 'application': {
      const portal = byId(
        await rows(t.applications.provider as unknown as Provider),
        portalKey('applications', spec.portalId),
        what,
      );
      return find(
        await rows(t.applications.provider as unknown as Provider, portal.node),
        (r) => r.clientId === spec.clientId,
        what,
      ).node;
    }
    case 'member':
      return memberNode(t, spec, what);
    default: {
      const portal = await portalRow(explorer, spec.portalId);
      const account = find(
        await rows(explorer, portal.node),
        (r) => r.kind === 'account' && r.accountId === spec.accountId,
        what,
      );
      if (spec.kind === 'account') return account.node;
      return find(await rows(explorer, account.node), (r) => r.groupId === spec.groupId, what).node;
    }
  }
}

async function memberNode(t: Testing, spec: Extract<RowSpec, { kind: 'member' }>, what: string): Promise<unknown> {
  const account = (await nodeOf({ kind: 'account', portalId: spec.portalId, accountId: spec.accountId })) as {
    ref: Parameters<Testing['members']['show']>[0];
  };
  t.members.show(account.ref);
  const members = t.members.provider as unknown as Provider;
  const all = await loadAll(members, undefined, 'portal.members.loadMore');
  return find(all, (r) => r.username === spec.username, what).node;
}

function byId(list: Row[], id: string, what: string): Row {
  const row = list.find((r) => r.id === id);
  if (!row) throw new Error(`no row for ${what} among: ${list.map((r) => r.id).join(', ')}`);
  return row;
}
