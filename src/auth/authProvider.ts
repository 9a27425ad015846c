import * as vscode from 'vscode';
import type { PortalConnection, PortalRegistry } from './portalRegistry';
import { plain } from '../shared/plainText';

export const AUTH_PROVIDER_ID = 'portal';

/**
 * Portal sessions in VS Code's Accounts menu, one per signed-in portal. The session list is derived
 * from the registry (settings + SecretStorage), so it survives restarts without any extra state.
 */
export class PortalAuthenticationProvider implements vscode.AuthenticationProvider, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<vscode.AuthenticationProviderAuthenticationSessionsChangeEvent>();
  readonly onDidChangeSessions = this.emitter.event;
  private known = new Map<string, string>();
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly registry: PortalRegistry,
    private readonly signIn: () => Promise<PortalConnection | undefined>,
    private readonly signOut: (portalId: string) => Promise<void>,
  ) {
    this.known = this.snapshot();
    this.subscription = registry.onDidChange(() => this.fireChanges());
  }

  async getSessions(): Promise<vscode.AuthenticationSession[]> {
    const sessions: vscode.AuthenticationSession[] = [];
    for (const c of this.registry.list()) {
      if (!c.client || !c.username) continue;
      try {
        sessions.push(toSession(c, await c.client.accessToken()));
      } catch {
        // A portal that cannot hand out a token right now is left out rather than offered with a dead one;
        // if its credentials were refused, the registry signs it out and fires a change.
      }
    }
    return sessions;
  }

  async createSession(): Promise<vscode.AuthenticationSession> {
    const c = await this.signIn();
    if (!c?.client) throw new Error(vscode.l10n.t('Sign-in was cancelled.'));
    return toSession(c, await c.client.accessToken());
  }

  async removeSession(sessionId: string): Promise<void> {
    await this.signOut(sessionId);
  }

  dispose(): void {
    this.subscription.dispose();
    this.emitter.dispose();
  }

  private snapshot(): Map<string, string> {
    const m = new Map<string, string>();
    for (const c of this.registry.list())
      if (c.client && c.username) m.set(c.entry.id, `${c.username}|${c.clientId ?? ''}`);
    return m;
  }

  private fireChanges(): void {
    const next = this.snapshot();
    const stub = (id: string): vscode.AuthenticationSession => ({
      id,
      accessToken: '',
      account: { id, label: id },
      scopes: [],
    });
    const added = [...next.keys()].filter((id) => !this.known.has(id)).map(stub);
    const removed = [...this.known.keys()].filter((id) => !next.has(id)).map(stub);
    const changed = [...next.keys()]
      .filter((id) => this.known.has(id) && this.known.get(id) !== next.get(id))
      .map(stub);
    this.known = next;
    if (added.length + removed.length + changed.length > 0) this.emitter.fire({ added, removed, changed });
  }
}

function toSession(c: PortalConnection, accessToken: string): vscode.AuthenticationSession {
  return {
    id: c.entry.id,
    accessToken,
    account: { id: `${c.entry.id}/${c.username ?? ''}`, label: plain(`${c.username ?? ''} @ ${c.entry.label}`) },
    scopes: [],
  };
}
