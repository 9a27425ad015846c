// Access and refresh tokens: issue, check, expire, revoke.
import { randomToken } from './secrets';

export interface TokenRecord {
  token: string;
  userId: number;
  clientId: string;
  scope: string;
  expiresAt: number;
}

export interface TokenData {
  access: TokenRecord[];
  refresh: TokenRecord[];
}

export interface IssuedToken {
  access_token: string;
  refresh_token: string;
  token_type: 'bearer';
  expires_in: number;
  scope: string;
}

/** Refresh tokens outlive access tokens by this factor. */
const REFRESH_FACTOR = 10;
/** Expired tokens are swept every this many issues, so memory stays bounded in long runs. */
const SWEEP_EVERY = 500;

export class TokenStore {
  private access = new Map<string, TokenRecord>();
  private refresh = new Map<string, TokenRecord>();
  private issued = 0;
  /** Bumped on every change, for persistence. */
  revision = 0;

  constructor(
    private readonly lifetimeSeconds: number,
    data?: TokenData,
  ) {
    for (const t of data?.access ?? []) this.access.set(t.token, t);
    for (const t of data?.refresh ?? []) this.refresh.set(t.token, t);
  }

  snapshot(): TokenData {
    return { access: [...this.access.values()], refresh: [...this.refresh.values()] };
  }

  /**
   * A new access token; the refresh token is reused when given (a refresh grant keeps its refresh
   * token, as Spring-style servers do by default), so concurrent refreshes cannot strand a client.
   */
  issue(userId: number, clientId: string, scope: string, now: number, refreshToken?: string): IssuedToken {
    if (++this.issued % SWEEP_EVERY === 0) this.sweep(now);
    const lifetimeMs = this.lifetimeSeconds * 1000;
    const access: TokenRecord = { token: randomToken(), userId, clientId, scope, expiresAt: now + lifetimeMs };
    this.access.set(access.token, access);
    let refresh = refreshToken ? this.refresh.get(refreshToken) : undefined;
    if (!refresh) {
      refresh = { token: randomToken(), userId, clientId, scope, expiresAt: now + lifetimeMs * REFRESH_FACTOR };
      this.refresh.set(refresh.token, refresh);
    }
    this.revision++;
    return {
      access_token: access.token,
      refresh_token: refresh.token,
      token_type: 'bearer',
      expires_in: this.lifetimeSeconds,
      scope,
    };
  }

  checkAccess(token: string, now: number): TokenRecord | undefined {
    return this.live(this.access, token, now);
  }

  checkRefresh(token: string, now: number): TokenRecord | undefined {
    return this.live(this.refresh, token, now);
  }

  expireAll(): void {
    this.access.clear();
    this.refresh.clear();
    this.revision++;
  }

  killClient(clientId: string): void {
    this.killWhere((t) => t.clientId === clientId);
  }

  killUser(userId: number): void {
    this.killWhere((t) => t.userId === userId);
  }

  private killWhere(match: (t: TokenRecord) => boolean): void {
    for (const map of [this.access, this.refresh]) {
      for (const [k, t] of map) if (match(t)) map.delete(k);
    }
    this.revision++;
  }

  private live(map: Map<string, TokenRecord>, token: string, now: number): TokenRecord | undefined {
    const t = map.get(token);
    if (!t) return undefined;
    if (t.expiresAt <= now) {
      map.delete(token);
      return undefined;
    }
    return t;
  }

  private sweep(now: number): void {
    for (const map of [this.access, this.refresh]) {
      for (const [k, t] of map) if (t.expiresAt <= now) map.delete(k);
    }
  }
}
