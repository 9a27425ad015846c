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
   * Deletes the portal's credentials only while they are still `failed`: another window may have stored new
   * ones (a rotated secret) since this one read them, and those must survive this window's failure.
   * True when something was deleted.
   */
  async deleteIfStill(portalId: string, failed: StoredCredentials): Promise<boolean> {
    const current = await this.get(portalId);
    if (!current || !sameCredentials(current, failed)) return false;
    await this.delete(portalId);
    return true;
  }

  /** Fires with the portal id when the credentials change, in this window or another one. */
  onDidChange(listener: (portalId: string) => void): vscode.Disposable {
    return this.secrets.onDidChange((e) => {
      if (e.key.startsWith(PREFIX)) listener(e.key.slice(PREFIX.length));
    });
  }
}
