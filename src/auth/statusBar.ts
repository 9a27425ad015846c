import * as vscode from 'vscode';
import type { PortalConnection, PortalRegistry } from './portalRegistry';
import { plain } from '../shared/plainText';

/**
 * Who is signed in to the active portal, and how much of its request budget this window has used.
 * The portal blocks a client past its budget, so the share is worth seeing before it bites.
 */
export class PortalStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('portal.status', vscode.StatusBarAlignment.Left, 10);
  private activeId: string | undefined;
  private pending: NodeJS.Timeout | undefined;
  private readonly ticker: NodeJS.Timeout;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly registry: PortalRegistry) {
    this.item.name = 'Portal';
    this.item.command = 'portal.showSessions';
    this.subscription = registry.onDidChange(() => this.update());
    // The budget window slides even when nothing is sent; a slow tick keeps the share honest.
    this.ticker = setInterval(() => this.update(), 15_000);
    this.update();
  }

  /** The portal the user is working in (from the tree selection). */
  setActive(portalId: string | undefined): void {
    if (portalId === this.activeId) return;
    this.activeId = portalId;
    this.update();
  }

  active(): PortalConnection | undefined {
    const all = this.registry.list();
    return all.find((c) => c.entry.id === this.activeId) ?? all.find((c) => c.client) ?? all[0];
  }

  /** Requests call this; updates are coalesced so a burst of requests repaints once. */
  scheduleUpdate(): void {
    this.pending ??= setTimeout(() => {
      this.pending = undefined;
      this.update();
    }, 250);
  }

  update(): void {
    const c = this.active();
    if (!c) {
      this.item.hide();
      return;
    }
    if (!c.client) {
      this.item.text = `$(account) ${plain(vscode.l10n.t('{0}: signed out', c.entry.label))}`;
      this.item.tooltip = plain(
        vscode.l10n.t(
          '{0} ({1}) is signed out. Click to sign in again or switch portal.',
          c.entry.label,
          c.entry.baseUrl,
        ),
      );
      this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
    } else {
      const { used, limit, windowMs } = budgetOf(c);
      const share = limit > 0 ? Math.round((used / limit) * 100) : 0;
      // The share of the request budget is noise until it nears the point where the portal blocks: then it says so.
      const nearLimit =
        share >= BUDGET_WORTH_SHOWING ? ` · ${plain(vscode.l10n.t('{0}% of request budget', share))}` : '';
      this.item.text = `$(account) ${plain(c.username)} @ ${plain(c.entry.label)}${nearLimit}`;
      this.item.tooltip = plain(
        vscode.l10n.t(
          "Signed in to {0} ({1}) as {2}.\nRequests in the last {3} minutes: {4} of {5}.\nClick to see the portals' sessions.",
          c.entry.label,
          c.entry.baseUrl,
          c.username ?? '',
          Math.round(windowMs / 60000),
          used,
          limit,
        ),
        { multiline: true },
      );
      this.item.backgroundColor = share >= 80 ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    }
    this.item.show();
  }

  dispose(): void {
    clearInterval(this.ticker);
    if (this.pending) clearTimeout(this.pending);
    this.subscription.dispose();
    this.item.dispose();
  }
}

/** From this share of the request budget on, the status bar shows it (the tooltip always does). */
const BUDGET_WORTH_SHOWING = 50;

function budgetOf(c: PortalConnection): { used: number; limit: number; windowMs: number } {
  const b = c.client?.budget;
  return b ? { used: b.used(), limit: b.limit, windowMs: b.windowMs } : { used: 0, limit: 0, windowMs: 0 };
}
