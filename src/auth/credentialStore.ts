import type * as vscode from 'vscode';

/** What is kept per portal, in SecretStorage only. */
export interface StoredCredentials {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly username: string;
  /** True when this extension created the application at sign-in, so sign-out may offer to delete it. */
  readonly applicationCreatedHere: boolean;
}

function key(portalId: string): string {
  return `portal.credentials.${portalId}`;
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
    };
  } catch {
    return undefined;
  }
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

  /** Fires with the portal id when another window changes its credentials. */
  onDidChange(listener: (portalId: string) => void): vscode.Disposable {
    return this.secrets.onDidChange((e) => {
      if (e.key.startsWith('portal.credentials.')) listener(e.key.slice('portal.credentials.'.length));
    });
  }
}
