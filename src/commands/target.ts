import * as vscode from 'vscode';
import { accountPermissionLabel, type PortalClient } from '../api';
import type { PortalRegistry } from '../auth/portalRegistry';
import { pickPortal, portalIdFromArg } from './auth';

/**
 * What a form command works on, read from a tree node (the explorer's nodes carry portalId, accountId,
 * groupId, username, clientId) or asked for with quick picks when the command runs from the palette.
 */
export interface Target {
  portalId: string;
  accountId?: number;
  groupId?: number;
  username?: string;
  clientId?: string;
  /** The node's label, when there is one: used in panel titles. */
  label?: string;
}

const positiveInt = (v: unknown): number | undefined => (typeof v === 'number' && Number.isSafeInteger(v) && v > 0 ? v : undefined);
const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** Reads the fields a tree node may carry; anything of the wrong type is ignored. */
export function targetFromArg(arg: unknown): Partial<Target> {
  const portalId = portalIdFromArg(arg);
  if (typeof arg !== 'object' || arg === null) return portalId ? { portalId } : {};
  const o = arg as Record<string, unknown>;
  // The explorer's nodes name themselves with `label` (accounts, groups) or row.name (members).
  const row = typeof o.row === 'object' && o.row !== null ? (o.row as Record<string, unknown>) : {};
  const label = text(o.label) ?? text(row.name) ?? text(row.friendlyName);
  const out: Partial<Target> = {};
  if (portalId) out.portalId = portalId;
  const accountId = positiveInt(o.accountId);
  if (accountId) out.accountId = accountId;
  const groupId = positiveInt(o.groupId);
  if (groupId) out.groupId = groupId;
  const username = text(o.username);
  if (username) out.username = username;
  const clientId = text(o.clientId);
  if (clientId) out.clientId = clientId;
  if (label) out.label = label;
  return out;
}

export class Picker {
  constructor(private readonly registry: PortalRegistry) {}

  async portal(partial: Partial<Target>): Promise<string | undefined> {
    return partial.portalId ?? (await pickPortal(this.registry, 'Which portal?', 'signed-in'));
  }

  client(portalId: string): PortalClient {
    return this.registry.client(portalId);
  }

  /** Asks for an account of the portal unless the argument named one. */
  async account(partial: Partial<Target>): Promise<Target & { accountId: number } | undefined> {
    const portalId = await this.portal(partial);
    if (!portalId) return undefined;
    if (partial.accountId) return { ...partial, portalId, accountId: partial.accountId };
    const accounts = await this.client(portalId).v3.accounts.list(true);
    const picked = accounts.length === 1 && accounts[0]
      ? { id: accounts[0].id, label: accounts[0].friendlyName }
      : await vscode.window.showQuickPick(
        accounts.map((a) => ({ label: a.friendlyName, description: a.name, id: a.id })),
        { placeHolder: 'Which account?', matchOnDescription: true },
      );
    return picked ? { ...partial, portalId, accountId: picked.id, label: picked.label } : undefined;
  }

  /** Asks for a member of the account (searching by name or e-mail) unless the argument named one. */
  async member(partial: Partial<Target>): Promise<Target & { accountId: number; username: string } | undefined> {
    const t = await this.account(partial);
    if (!t) return undefined;
    if (partial.username) return { ...t, username: partial.username, label: partial.label ?? partial.username };
    const client = this.client(t.portalId);
    type Item = vscode.QuickPickItem & { username: string };
    const qp = vscode.window.createQuickPick<Item>();
    qp.placeholder = 'Type a name or e-mail to find a member';
    qp.matchOnDescription = true;
    qp.matchOnDetail = true;
    let seq = 0;
    const search = async (name: string): Promise<void> => {
      const mine = ++seq;
      qp.busy = true;
      try {
        const page = await client.v3.members.page(t.accountId, { size: 50, ...(name ? { name } : {}), orderBy: 'name', ascending: true });
        if (mine !== seq) return;
        qp.items = page.items.map((m) => ({
          label: m.user.name || m.user.username,
          description: m.user.username,
          detail: `${m.user.email} · ${accountPermissionLabel(m.permission)}`,
          username: m.user.username,
        }));
      } catch (err) {
        if (mine === seq) qp.items = [{ label: `$(error) ${err instanceof Error ? err.message : String(err)}`, username: '', alwaysShow: true }];
      } finally {
        if (mine === seq) qp.busy = false;
      }
    };
    let timer: NodeJS.Timeout | undefined;
    qp.onDidChangeValue((v) => {
      clearTimeout(timer);
      // Search the portal, not just the loaded page, but only once typing pauses.
      timer = setTimeout(() => void search(v.trim()), 250);
    });
    void search('');
    const picked = await new Promise<Item | undefined>((resolve) => {
      qp.onDidAccept(() => resolve(qp.selectedItems[0]));
      qp.onDidHide(() => resolve(undefined));
      qp.show();
    });
    clearTimeout(timer);
    qp.dispose();
    return picked?.username ? { ...t, username: picked.username, label: picked.label } : undefined;
  }

  /** Asks for a group of the account unless the argument named one. */
  async group(partial: Partial<Target>): Promise<Target & { accountId: number; groupId: number } | undefined> {
    const t = await this.account(partial);
    if (!t) return undefined;
    if (partial.groupId) return { ...t, groupId: partial.groupId, label: partial.label ?? String(partial.groupId) };
    const groups = await this.client(t.portalId).v2.groups.list(t.accountId);
    const picked = await vscode.window.showQuickPick(
      groups.map((g) => ({ label: g.friendlyName, description: g.name, id: g.id })),
      { placeHolder: 'Which group?', matchOnDescription: true },
    );
    return picked ? { ...t, groupId: picked.id, label: picked.label } : undefined;
  }

  /** Asks for an application of the signed-in user unless the argument named one. */
  async application(partial: Partial<Target>): Promise<Target & { clientId: string } | undefined> {
    const portalId = await this.portal(partial);
    if (!portalId) return undefined;
    if (partial.clientId) return { ...partial, portalId, clientId: partial.clientId };
    const apps = await this.client(portalId).v3.applications.list();
    const picked = await vscode.window.showQuickPick(
      apps.map((a) => ({ label: a.name || a.clientId, description: a.clientId, detail: [a.platform, a.deviceType].filter(Boolean).join(' · '), id: a.clientId })),
      { placeHolder: 'Which application?', matchOnDescription: true },
    );
    return picked ? { ...partial, portalId, clientId: picked.id, label: picked.label } : undefined;
  }
}
