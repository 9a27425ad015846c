import { createHash } from 'node:crypto';
import type * as vscode from 'vscode';

/** Where a secret was issued: it is only ever sent back there. */
export interface IssuedFor {
  /** scheme://host[:port] of the portal that issued the credentials. */
  readonly origin: string;
  readonly service: string;
}

/** What a sign-in hands over to be kept. */
export interface NewCredentials {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly username: string;
  /** True when this extension created the application at sign-in, so sign-out may offer to delete it. */
  readonly applicationCreatedHere: boolean;
}

/** What is kept per portal, in SecretStorage only. */
export interface StoredCredentials extends NewCredentials {
  /** Undefined for credentials saved before they were bound; they are bound to the entry at the next load. */
  readonly issuedFor: IssuedFor | undefined;
}

const PREFIX = 'portal.credentials.';

function key(portalId: string): string {
  return `${PREFIX}${portalId}`;
}

function parseIssuedFor(v: unknown): IssuedFor | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const o = v as Record<string, unknown>;
  return typeof o.origin === 'string' && typeof o.service === 'string'
    ? { origin: o.origin, service: o.service }
    : undefined;
}

function parse(raw: string | undefined): StoredCredentials | undefined {
  if (!raw) return undefined;
  try {
    const o = JSON.parse(raw) as Record<string, unknown>;
    if (typeof o.clientId !== 'string' || typeof o.clientSecret !== 'string') return undefined;
    return {
      clientId: o.clientId,
      clientSecret: o.clientSecret,
      username: typeof o.username === 'string' ? o.username : '',
      applicationCreatedHere: o.applicationCreatedHere === true,
      issuedFor: parseIssuedFor(o.issuedFor),
    };
  } catch {
    return undefined;
  }
}

/** What `deleteIfStill` leaves in storage: which credentials were refused, without their secret. */
interface RefusedMarker {
  readonly refused: { readonly clientId: string; readonly digest: string };
}

/** Tells credentials apart without keeping their secret. */
function digest(c: StoredCredentials): string {
  return createHash('sha256').update(`${c.clientId}\n${c.clientSecret}`).digest('base64url');
}

function parseRefused(raw: string | undefined): RefusedMarker['refused'] | undefined {
  if (!raw) return undefined;
  try {
    const r = (JSON.parse(raw) as { refused?: unknown }).refused;
    if (typeof r !== 'object' || r === null) return undefined;
    const { clientId, digest } = r as Record<string, unknown>;
    return typeof clientId === 'string' && typeof digest === 'string' ? { clientId, digest } : undefined;
  } catch {
    return undefined;
  }
}

/** Two copies hold the same credentials: every field counts, the secret included (a rotation keeps the id). */
export function sameCredentials(a: StoredCredentials | undefined, b: StoredCredentials | undefined): boolean {
  if (!a || !b) return a === b;
  return (
    a.clientId === b.clientId &&
    a.clientSecret === b.clientSecret &&
    a.username === b.username &&
    a.applicationCreatedHere === b.applicationCreatedHere &&
    a.issuedFor?.origin === b.issuedFor?.origin &&
    a.issuedFor?.service === b.issuedFor?.service
  );
}

export class CredentialStore {
  constructor(private readonly secrets: vscode.SecretStorage) {}

  async get(portalId: string): Promise<StoredCredentials | undefined> {
    return parse(await this.secrets.get(key(portalId)));
  }

  async set(portalId: string, credentials: StoredCredentials): Promise<void> {
    await this.secrets.store(key(portalId), JSON.stringify(credentials));
  }

  async delete(portalId: string): Promise<void> {
    await this.secrets.delete(key(portalId));
  }

  /**
   * Removes the portal's credentials only while they are still `failed`: another window may have stored new ones (a
   * rotated secret, a new sign-in) since this one read them, and those must survive this window's failure.
   * True when something was removed.
   *
   * SecretStorage has no compare-and-delete, so a write from another window can still land between the read and the
   * write here (one round trip to the storage) and be overwritten. What is written is therefore not nothing but a
   * marker naming the refused credentials (their client id and a digest, never the secret): the window whose
   * credentials it overwrote sees that they were not the ones refused and stores them again (`reinstate`), so the
   * race costs a moment signed out, not the sign-in. A user's sign-out deletes outright and is never undone.
   */
  async deleteIfStill(portalId: string, failed: StoredCredentials): Promise<boolean> {
    const current = await this.get(portalId);
    if (!current || !sameCredentials(current, failed)) return false;
    const marker: RefusedMarker = { refused: { clientId: failed.clientId, digest: digest(failed) } };
    await this.secrets.store(key(portalId), JSON.stringify(marker));
    return true;
  }

  /**
   * Called when the portal's credentials vanished from under `mine`: if what storage holds is the marker of other
   * credentials refused in another window, `mine` were overwritten by the race `deleteIfStill` describes, and are
   * stored again. True when they were. (Itself a read then a write: a sign-out landing in between is undone, which
   * needs two windows and a third action within one round trip.)
   */
  async reinstate(portalId: string, mine: StoredCredentials): Promise<boolean> {
    const refused = parseRefused(await this.secrets.get(key(portalId)));
    if (!refused || (refused.clientId === mine.clientId && refused.digest === digest(mine))) return false;
    await this.set(portalId, mine);
    return true;
  }

  /** Fires with the portal id when the credentials change, in this window or another one. */
  onDidChange(listener: (portalId: string) => void): vscode.Disposable {
    return this.secrets.onDidChange((e) => {
      if (e.key.startsWith(PREFIX)) listener(e.key.slice(PREFIX.length));
    });
  }
}
