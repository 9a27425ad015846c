import * as vscode from 'vscode';
import { NOT_SIGNED_IN, parseBaseUrl, PortalClient, PortalError, type Credentials, type TokenSet } from '../api';
import {
  CredentialStore,
  sameCredentials,
  type IssuedFor,
  type NewCredentials,
  type StoredCredentials,
} from './credentialStore';
import { errorMessage } from '../shared/errors';
import type { SettingsWriter } from '../ui/settingsWriter';
import { readPortalEntries, writePortalEntries, type PortalEntry } from './portalEntry';
import { removeUnusedApplication } from './unusedApplication';

/**
 * A client for a portal entry, holding `start.credentials` from the beginning; `start.tokens` are tokens a sign-in just
 * obtained for those credentials, so the new client makes no grant before its first call.
 */
export type ClientFactory = (
  entry: PortalEntry,
  onSignedOut: (error: PortalError) => void,
  start?: { credentials: Credentials; tokens?: TokenSet | undefined },
) => PortalClient;

/** A portal as this window sees it: its settings entry and, while signed in, a client. */
export interface PortalConnection {
  readonly entry: PortalEntry;
  /** Set while signed in; the client holds the client credentials in memory only. */
  readonly client: PortalClient | undefined;
  readonly username: string | undefined;
  /** The application's client id (an identifier, not a secret); the secret stays inside the client. */
  readonly clientId: string | undefined;
  /** True when this extension created the application, so sign-out may offer to delete it. */
  readonly applicationCreatedHere: boolean;
  /** Why the portal is signed out, when it was signed out by the portal rather than the user. */
  readonly signedOutReason: string | undefined;
}

/**
 * Owns every portal's connection: restores them from settings + SecretStorage on start, and turns a
 * portal-side revocation into one clean sign-out (secrets removed, one message, no retries).
 */
export class PortalRegistry implements vscode.Disposable {
  private readonly connections = new Map<string, PortalConnection>();
  /** The credentials each signed-in client was given, to compare with what storage holds later. Never shown. */
  private readonly inUse = new Map<string, StoredCredentials>();
  private readonly emitter = new vscode.EventEmitter<PortalConnection | undefined>();
  private readonly disposables: vscode.Disposable[] = [];
  readonly onDidChange = this.emitter.event;
  private readonly userSignedOut = new vscode.EventEmitter<PortalEntry>();
  /** The user signed out of a portal, or removed it (not a sign-out the portal caused): its local data may go too. */
  readonly onDidSignOutByUser = this.userSignedOut.event;

  constructor(
    private readonly store: CredentialStore,
    private readonly createClient: ClientFactory,
    private readonly notifySignedOut: (connection: PortalConnection) => void,
    /** The engine's way to delete the application a replaced sign-in created (see retire). */
    private readonly settings: SettingsWriter,
  ) {
    this.disposables.push(
      this.emitter,
      this.userSignedOut,
      // Another window signing in or out of the same portal: follow it.
      store.onDidChange((portalId) => void this.reload(portalId)),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('portal.portals')) void this.restore();
      }),
    );
  }

  /**
   * Loads every portal from settings and its credentials from SecretStorage. No network. Fires only
   * when something changed, because our own settings writes come back here and views reload on a change.
   */
  async restore(): Promise<void> {
    const entries = readPortalEntries();
    const ids = new Set(entries.map((e) => e.id));
    let changed = false;
    for (const [id, c] of this.connections) {
      if (!ids.has(id)) {
        c.client?.close();
        this.connections.delete(id);
        changed = true;
      }
    }
    for (const entry of entries) {
      const existing = this.connections.get(entry.id);
      if (existing && sameEntry(existing.entry, entry)) continue;
      existing?.client?.close();
      // One unreadable secret must not keep the other portals (and the views) from loading.
      const credentials = await this.store.get(entry.id).catch(() => undefined);
      await this.connect(entry, credentials);
      changed = true;
    }
    if (changed) this.emitter.fire(undefined);
  }

  list(): PortalConnection[] {
    return [...this.connections.values()];
  }

  get(portalId: string): PortalConnection | undefined {
    return this.connections.get(portalId);
  }

  /** The client of a signed-in portal; a signed-out portal is an error a person can act on. */
  client(portalId: string): PortalClient {
    const c = this.connections.get(portalId);
    if (!c?.client) {
      // The portal signing us out (a reason is kept) reads differently from never having signed in.
      throw new PortalError(
        c?.signedOutReason
          ? { kind: 'signed-out', endpoint: '', message: c.signedOutReason }
          : {
              kind: 'signed-out',
              endpoint: '',
              code: NOT_SIGNED_IN,
              message: c
                ? vscode.l10n.t('You are not signed in to {0}.', c.entry.label)
                : vscode.l10n.t('You are not signed in to this portal.'),
            },
      );
    }
    return c.client;
  }

  /**
   * Records a completed sign-in: settings get the entry, SecretStorage the credentials, and the
   * portal gets a fresh client on the client-credentials grant (the sign-in's own client is discarded
   * with the password it held).
   */
  async add(entry: PortalEntry, credentials: NewCredentials, tokens?: TokenSet): Promise<PortalConnection> {
    const bound: StoredCredentials = { ...credentials, issuedFor: issuedFor(entry) };
    const earlier = this.inUse.get(entry.id);
    await this.store.set(entry.id, bound);
    this.connections.get(entry.id)?.client?.close();
    const connection = await this.connect(entry, bound, tokens);
    await writePortalEntries([...readPortalEntries().filter((e) => e.id !== entry.id), entry]);
    this.emitter.fire(connection);
    await this.retire(entry, earlier, bound);
    return connection;
  }

  /**
   * A sign-in replaced `earlier`, whose secret is now forgotten. An application this extension created for it would
   * stay live on the portal, working for whoever else holds that secret, so it is deleted, with its own credentials:
   * they may belong to another user than the new sign-in. It goes through the engine with those credentials (see
   * unusedApplication.ts), named as the portal names the application. Best effort, after the new credentials are in
   * place: if the portal refuses the old ones, the application is gone or dead already, and one that could not be
   * deleted stays listed in the Applications view.
   */
  private async retire(
    entry: PortalEntry,
    earlier: StoredCredentials | undefined,
    now: StoredCredentials,
  ): Promise<void> {
    if (!earlier?.applicationCreatedHere || earlier.clientId === now.clientId) return;
    // Its secret goes only to where it was issued, like any other request with it.
    if (earlier.issuedFor && !sameIssuer(earlier.issuedFor, issuedFor(entry))) return;
    let client: PortalClient | undefined;
    try {
      client = this.createClient(entry, () => undefined, {
        credentials: { kind: 'client', clientId: earlier.clientId, clientSecret: earlier.clientSecret },
      });
      const { clientId } = earlier;
      // Its name, for the change history; the client id when the portal no longer tells it.
      const name = await client.v3.applications.get(clientId).then(
        (a) => a.name,
        () => clientId,
      );
      await removeUnusedApplication(this.settings, client, entry.id, { clientId, name });
    } catch {
      // See above: nothing the new sign-in depends on.
    } finally {
      client?.close();
    }
  }

  /**
   * Removes the credentials; the portal stays listed so it can be signed in again. With `failed`, only those
   * credentials are removed: storage that holds newer ones (another window rotated the secret) is left alone.
   */
  async signOut(portalId: string, reason?: string, failed?: StoredCredentials): Promise<void> {
    const c = this.connections.get(portalId);
    // The state changes before the secret is deleted, so the change event that deletion raises finds
    // nothing left to do and cannot overwrite the reason.
    if (c) {
      c.client?.close();
      this.inUse.delete(portalId);
      this.connections.set(portalId, { ...signedOut(c.entry), signedOutReason: reason });
    }
    if (failed) await this.store.deleteIfStill(portalId, failed);
    else await this.store.delete(portalId);
    const after = this.connections.get(portalId);
    if (after) this.emitter.fire(after);
  }

  /** Says that the user (not the portal) ended the session. */
  signedOutByUser(entry: PortalEntry): void {
    this.userSignedOut.fire(entry);
  }

  /** Forgets the portal entirely: settings entry and secrets. */
  async remove(portalId: string): Promise<void> {
    const entry = this.connections.get(portalId)?.entry;
    await this.signOut(portalId);
    if (entry) this.userSignedOut.fire(entry);
    this.connections.delete(portalId);
    await writePortalEntries(readPortalEntries().filter((e) => e.id !== portalId));
    this.emitter.fire(undefined);
  }

  dispose(): void {
    for (const c of this.connections.values()) c.client?.close();
    this.connections.clear();
    for (const d of this.disposables) d.dispose();
  }

  /** Storage changed (this window or another): follow it when it holds other credentials than the client uses. */
  private async reload(portalId: string): Promise<void> {
    const credentials = await this.store.get(portalId).catch(() => undefined);
    // Read the connection after the await: a sign-in or sign-out in this window may have settled meanwhile.
    const c = this.connections.get(portalId);
    if (!c) return;
    // Gone from under a working client: another window's failure may have overwritten them (see deleteIfStill).
    const mine = this.inUse.get(portalId);
    if (!credentials && c.client && mine && (await this.store.reinstate(portalId, mine).catch(() => false))) return;
    const unchanged = c.client ? sameCredentials(this.inUse.get(portalId), credentials) : credentials === undefined;
    if (unchanged) return;
    c.client?.close();
    this.emitter.fire(await this.connect(c.entry, credentials));
  }

  private async connect(
    entry: PortalEntry,
    credentials: StoredCredentials | undefined,
    tokens?: TokenSet,
  ): Promise<PortalConnection> {
    this.inUse.delete(entry.id);
    if (!credentials) return this.setSignedOut(entry, undefined);
    let binding: IssuedFor;
    let client: PortalClient;
    try {
      binding = issuedFor(entry);
      // A secret goes only to the origin and service it was issued for, whatever the settings say now.
      if (credentials.issuedFor && !sameIssuer(credentials.issuedFor, binding)) {
        return this.setSignedOut(
          entry,
          vscode.l10n.t(
            'The saved sign-in for {0} was made for {1} (service "{2}"), but the portal entry now points at {3} (service "{4}"). It is not sent there. Sign in again to use this address.',
            entry.label,
            credentials.issuedFor.origin,
            credentials.issuedFor.service,
            binding.origin,
            binding.service,
          ),
        );
      }
      const credentialsNow: Credentials = {
        kind: 'client',
        clientId: credentials.clientId,
        clientSecret: credentials.clientSecret,
      };
      client = this.createClient(entry, (error) => void this.onPortalSignedOut(entry.id, client, error), {
        credentials: credentialsNow,
        tokens,
      });
    } catch (error) {
      // Settings the client refuses (an address edited into plain http on a public host, or not a URL at all):
      // the portal shows as signed out with the reason, and its stored credentials stay for when it is fixed.
      return this.setSignedOut(entry, errorMessage(error));
    }
    const bound: StoredCredentials = credentials.issuedFor ? credentials : { ...credentials, issuedFor: binding };
    // Credentials saved before they were bound take the binding of the user's own entry, once.
    if (!credentials.issuedFor) await this.store.set(entry.id, bound).catch(() => undefined);
    this.inUse.set(entry.id, bound);
    const connection: PortalConnection = {
      entry,
      client,
      username: bound.username,
      clientId: bound.clientId,
      applicationCreatedHere: bound.applicationCreatedHere,
      signedOutReason: undefined,
    };
    this.connections.set(entry.id, connection);
    return connection;
  }

  private setSignedOut(entry: PortalEntry, reason: string | undefined): PortalConnection {
    const connection = { ...signedOut(entry), signedOutReason: reason };
    this.connections.set(entry.id, connection);
    return connection;
  }

  /**
   * Called by the client once its credentials are refused. Storage is read again first: another window may have
   * rotated the secret, and then this window switches to the new one instead of signing everyone out. Otherwise
   * one clean sign-out and one message, and only the refused credentials are deleted.
   */
  private async onPortalSignedOut(portalId: string, client: PortalClient, error: PortalError): Promise<void> {
    const c = this.connections.get(portalId);
    if (!c || c.client !== client) return; // already handled, or a client we replaced
    const failed = this.inUse.get(portalId);
    const stored = await this.store.get(portalId).catch(() => undefined);
    if (this.connections.get(portalId)?.client !== client) return;
    if (stored && failed && !sameCredentials(stored, failed)) {
      client.close();
      this.emitter.fire(await this.connect(c.entry, stored));
      return;
    }
    await this.signOut(portalId, error.message, failed);
    const after = this.connections.get(portalId);
    if (after) this.notifySignedOut(after);
  }
}

function issuedFor(entry: PortalEntry): IssuedFor {
  return { origin: parseBaseUrl(entry.baseUrl).origin, service: entry.service };
}

function sameIssuer(a: IssuedFor, b: IssuedFor): boolean {
  return a.origin === b.origin && a.service === b.service;
}

function sameEntry(a: PortalEntry, b: PortalEntry): boolean {
  return a.baseUrl === b.baseUrl && a.service === b.service && a.label === b.label;
}

function signedOut(entry: PortalEntry): PortalConnection {
  return {
    entry,
    client: undefined,
    username: undefined,
    clientId: undefined,
    applicationCreatedHere: false,
    signedOutReason: undefined,
  };
}
