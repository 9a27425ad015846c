/**
 * Tokens: grants, single-flight renewal and the signed-out state.
 *
 * - One renewal at a time: every caller that needs a token while one is being fetched waits for the same promise
 *   (fifty calls that meet an expired token cause one token request). A caller's AbortSignal stops its wait,
 *   never the shared renewal.
 * - Renewal with client credentials re-runs the client-credentials grant directly. The refresh token adds nothing
 *   when the secret is at hand, and when the portal kills access and refresh tokens together (as it does on
 *   expiry-all and revocation) trying it first would cost a second, doomed request. With password credentials the
 *   refresh token is tried first (the two-factor code is single-use, so re-running the password grant may not be
 *   possible), then the password grant while the password is still held (it is dropped after enrollment).
 * - When the portal rejects the credentials during a renewal (invalid_client, invalid_grant, a two-factor demand),
 *   the session latches 'signed-out': onSignedOut fires once and later calls fail fast without touching the network
 *   until new credentials are set.
 * - Tokens are renewed shortly before `expires_in` runs out; a 401 is still handled (clocks and servers differ).
 */
import * as l10n from '@vscode/l10n';
import { PortalError, cancelledError, quoteServerText } from './errors';
import type { SecretRegistry } from './redact';
import { unlessAborted } from './abort';

export type Credentials =
  | { kind: 'password'; username: string; password: string; code?: string }
  | { kind: 'client'; clientId: string; clientSecret: string };

/** What a token store persists. Every field except clientId is secret. */
export interface TokenSet {
  accessToken: string;
  refreshToken?: string;
  /** Epoch ms when the access token stops working, if the portal said. */
  expiresAt?: number;
  /** The client id the token was issued to (the static <service>-mobile id for the password grant). */
  clientId: string;
  scope?: string;
}

/** Optional persistence hook (the extension backs it with SecretStorage). */
export interface TokenStore {
  load(): TokenSet | undefined | Promise<TokenSet | undefined>;
  save(tokens: TokenSet | undefined): void | Promise<void>;
}

/** Raw token endpoint answer. */
export interface TokenResponse {
  access_token: string;
  refresh_token?: string;
  token_type?: string;
  expires_in?: number;
  scope?: string;
}

export interface TokenEndpoint {
  /** POSTs the form to /oauth/token; throws PortalError with token-specific kinds. */
  requestToken(form: Record<string, string>, signal?: AbortSignal): Promise<TokenResponse>;
}

interface SessionOptions {
  endpoint: TokenEndpoint;
  /** The static password-grant client id, "<service>-mobile". */
  staticClientId: string;
  secrets: SecretRegistry;
  /** host[:port] for messages. */
  host: string;
  onSignedOut?: ((error: PortalError) => void) | undefined;
  tokenStore?: TokenStore | undefined;
  /** Scope requested with client credentials. */
  scope?: string;
  /** The clock token lifetimes are counted by (epoch ms); default the wall clock. */
  clock?: (() => number) | undefined;
}

export const TOKEN_ENDPOINT = 'POST /oauth/token';
/** Code of the 'signed-out' error raised when no credentials were ever given (not a revocation: no latch). */
export const NOT_SIGNED_IN = 'not_signed_in';
const MAX_EARLY_RENEWAL_MS = 30_000;
/**
 * The spec leaves the unit of `expires_in` open: its v3 example (7199) reads as seconds, while a portal may mean
 * minutes (30 for the documented 30-minute token). It is read as seconds. If the portal meant minutes, the token is
 * renewed sixty times sooner than needed, never later: about one token request per 27 s of use for a 30-minute
 * token, which the budget absorbs, and no call ever meets an expired token. Reading minutes instead would make a
 * portal that means seconds answer 401 on every renewal. A token that dies before its planned end anyway (clocks,
 * revocation) is renewed on the 401, once for every concurrent caller.
 */
function plannedLifetimeMs(expiresIn: number): number {
  return expiresIn * 1000;
}

/** The renewal's tokens, or a 'cancelled' error as soon as the signal aborts: the renewal runs on for the others. */
async function waitFor(
  renewal: Promise<TokenSet>,
  signal: AbortSignal | undefined,
  endpoint: string,
): Promise<TokenSet> {
  if (!signal) return renewal;
  const tokens = await unlessAborted(renewal, signal);
  if (tokens === undefined) throw cancelledError(endpoint);
  return tokens;
}

/** Token-endpoint failures that mean "these credentials no longer work" (as opposed to network trouble). */
function isCredentialRejection(e: unknown): e is PortalError {
  return (
    e instanceof PortalError &&
    (e.kind === 'auth' ||
      e.kind === 'two-factor-required' ||
      e.kind === 'two-factor-invalid' ||
      e.kind === 'signed-out')
  );
}

export class Session {
  private credentials: Credentials | undefined;
  private tokens: TokenSet | undefined;
  /** When the current token is renewed early (epoch ms): a tenth of its lifetime, at most 30 s, before it ends. */
  private renewAt: number | undefined;
  private renewal: Promise<TokenSet> | undefined;
  private signedOut: PortalError | undefined;
  /** Bumped whenever credentials change, so a stale renewal cannot overwrite newer state. */
  private generation = 0;
  private storeLoaded = false;
  private readonly opts: SessionOptions;
  private readonly now: () => number;

  constructor(opts: SessionOptions, credentials?: Credentials, initialTokens?: TokenSet) {
    this.opts = opts;
    this.now = opts.clock ?? Date.now;
    if (credentials) this.setCredentials(credentials);
    // Tokens another client obtained for these very credentials (see PortalClient.tokens()).
    if (
      initialTokens &&
      typeof initialTokens.accessToken === 'string' &&
      initialTokens.clientId === this.expectedClientId()
    ) {
      this.setTokens({ ...initialTokens });
    }
  }

  /** A copy of the current tokens (undefined when there are none or the current one is known dead). */
  currentTokens(): TokenSet | undefined {
    const t = this.tokens;
    return t && t.accessToken !== '' ? { ...t } : undefined;
  }

  /** The kind of credentials held, without exposing them. */
  get credentialKind(): Credentials['kind'] | undefined {
    return this.credentials?.kind;
  }

  /** The application's client id when client credentials are in use. */
  get clientId(): string | undefined {
    return this.credentials?.kind === 'client' ? this.credentials.clientId : undefined;
  }

  get isSignedOut(): boolean {
    return this.signedOut !== undefined;
  }

  get hasToken(): boolean {
    return this.tokens !== undefined;
  }

  /** Replaces the credentials; drops the current token and the signed-out state. No network. */
  setCredentials(credentials: Credentials | undefined): void {
    this.forgetCredentialSecrets();
    this.credentials = credentials ? { ...credentials } : undefined;
    if (credentials?.kind === 'password') {
      this.opts.secrets.pin(credentials.password);
      this.opts.secrets.pin(credentials.code);
    } else if (credentials?.kind === 'client') {
      this.opts.secrets.pin(credentials.clientSecret);
    }
    this.generation++;
    this.renewal = undefined;
    this.signedOut = undefined;
    this.setTokens(undefined, false);
  }

  /** Runs the grant for these credentials now; on success they become the session's credentials. */
  async signIn(credentials: Credentials, signal?: AbortSignal): Promise<TokenSet> {
    // Pin first so the secrets are masked in anything the grant logs or throws.
    if (credentials.kind === 'password') {
      this.opts.secrets.pin(credentials.password);
      this.opts.secrets.pin(credentials.code);
    } else {
      this.opts.secrets.pin(credentials.clientSecret);
    }
    const tokens = await this.grant(credentials, signal);
    this.setCredentials(credentials);
    this.dropUsedCode();
    this.setTokens(tokens);
    return tokens;
  }

  /** Clears everything (sign out locally). */
  clear(): void {
    this.setCredentials(undefined);
  }

  /** The current token if it can be used as is (no renewal due, nothing to load): the synchronous fast path. */
  peekToken(): string | undefined {
    if (this.signedOut || !this.storeLoaded || this.renewal) return undefined;
    const t = this.tokens;
    return t && !this.isExpiring(t) ? t.accessToken : undefined;
  }

  /** A usable access token: the current one, or one renewed (single-flight). */
  async accessToken(endpoint: string, signal?: AbortSignal): Promise<string> {
    if (this.signedOut) throw this.signedOutFor(endpoint);
    if (!this.storeLoaded) await this.loadStore();
    const t = this.tokens;
    if (t && !this.isExpiring(t)) return t.accessToken;
    if (t && !this.isExpired(t)) {
      // Early renewal: if it fails for a reason other than rejected credentials, the current token still works.
      try {
        return (await waitFor(this.renew(), signal, endpoint)).accessToken;
      } catch (e) {
        if (isCredentialRejection(e) || (e instanceof PortalError && e.kind === 'cancelled'))
          throw this.retag(e, endpoint);
        return t.accessToken;
      }
    }
    try {
      return (await waitFor(this.renew(), signal, endpoint)).accessToken;
    } catch (e) {
      throw this.retag(e, endpoint);
    }
  }

  /**
   * A request carrying `staleToken` got 401. Renews once for everyone who saw that token; callers that saw an older
   * token get the current one without another request.
   */
  async renewAfter401(staleToken: string, endpoint: string, signal?: AbortSignal): Promise<string> {
    if (this.signedOut) throw this.signedOutFor(endpoint);
    const current = this.tokens;
    if (!this.renewal && current) {
      // Someone already renewed since this request was sent: use their token.
      if (current.accessToken !== '' && current.accessToken !== staleToken) return current.accessToken;
      // Mark the token dead so concurrent callers join the renewal instead of sending it again.
      if (current.accessToken === staleToken) this.setTokens({ ...current, accessToken: '' }, false);
    }
    try {
      return (await waitFor(this.renew(), signal, endpoint)).accessToken;
    } catch (e) {
      throw this.retag(e, endpoint);
    }
  }

  /** A freshly issued token was refused too: the portal does not accept us. */
  rejectedAfterRenewal(endpoint: string): PortalError {
    return this.latchSignedOut(
      new PortalError({
        kind: 'signed-out',
        endpoint,
        status: 401,
        message: l10n.t(
          'You are signed out of {0}: the portal refused a freshly issued token. Sign in again.',
          this.opts.host,
        ),
      }),
      endpoint,
    );
  }

  // -------------------------------------------------------------------------------------------------------------

  private renew(): Promise<TokenSet> {
    if (this.renewal) return this.renewal;
    const generation = this.generation;
    const p = this.doRenew()
      .then(
        (tokens) => {
          if (generation === this.generation) this.setTokens(tokens);
          return tokens;
        },
        (e: unknown) => {
          if (generation === this.generation && isCredentialRejection(e) && e.code !== NOT_SIGNED_IN)
            this.latchSignedOut(e, TOKEN_ENDPOINT);
          throw e;
        },
      )
      .finally(() => {
        if (this.renewal === p) this.renewal = undefined;
      });
    this.renewal = p;
    return p;
  }

  private async doRenew(): Promise<TokenSet> {
    const creds = this.credentials;
    if (creds?.kind === 'client') return this.grant(creds);
    const refresh = this.tokens?.refreshToken;
    if (refresh) {
      try {
        return await this.refreshGrant(refresh, this.tokens?.clientId ?? this.opts.staticClientId);
      } catch (e) {
        if (!isCredentialRejection(e) || creds?.kind !== 'password') throw e;
        // The refresh token is dead; fall through to the password grant.
      }
    }
    if (creds?.kind === 'password') {
      // The two-factor code was single-use: a renewal cannot repeat it. A portal that insists gets a sign-in prompt.
      const { code: _used, ...withoutCode } = creds;
      return this.grant(withoutCode);
    }
    throw new PortalError({
      kind: 'signed-out',
      endpoint: TOKEN_ENDPOINT,
      code: NOT_SIGNED_IN,
      message: l10n.t('You are not signed in to {0}. Sign in first.', this.opts.host),
    });
  }

  private async grant(credentials: Credentials, signal?: AbortSignal): Promise<TokenSet> {
    if (credentials.kind === 'password') {
      const form: Record<string, string> = {
        grant_type: 'password',
        client_id: this.opts.staticClientId,
        username: credentials.username,
        password: credentials.password,
      };
      if (credentials.code) form.code = credentials.code;
      return this.toTokenSet(await this.opts.endpoint.requestToken(form, signal), this.opts.staticClientId);
    }
    const form = {
      grant_type: 'client_credentials',
      client_id: credentials.clientId,
      client_secret: credentials.clientSecret,
      scope: this.opts.scope ?? 'read write',
    };
    return this.toTokenSet(await this.opts.endpoint.requestToken(form, signal), credentials.clientId);
  }

  private async refreshGrant(refreshToken: string, clientId: string): Promise<TokenSet> {
    const res = await this.opts.endpoint.requestToken({
      grant_type: 'refresh_token',
      client_id: clientId,
      refresh_token: refreshToken,
    });
    const tokens = this.toTokenSet(res, clientId);
    // Some servers do not rotate the refresh token: keep the old one.
    return tokens.refreshToken ? tokens : { ...tokens, refreshToken };
  }

  private toTokenSet(res: TokenResponse, clientId: string): TokenSet {
    this.opts.secrets.add(res.access_token);
    this.opts.secrets.add(res.refresh_token);
    const tokens: TokenSet = { accessToken: res.access_token, clientId };
    if (res.refresh_token) tokens.refreshToken = res.refresh_token;
    if (typeof res.expires_in === 'number' && res.expires_in > 0)
      tokens.expiresAt = this.now() + plannedLifetimeMs(res.expires_in);
    if (res.scope) tokens.scope = res.scope;
    return tokens;
  }

  private setTokens(tokens: TokenSet | undefined, persist = true): void {
    this.tokens = tokens;
    // Tokens in hand make the store's copy irrelevant.
    if (tokens) this.storeLoaded = true;
    const expiresAt = tokens?.expiresAt;
    this.renewAt =
      expiresAt !== undefined
        ? expiresAt - Math.min(MAX_EARLY_RENEWAL_MS, Math.max(0, expiresAt - this.now()) / 10)
        : undefined;
    if (tokens) {
      this.opts.secrets.add(tokens.accessToken);
      this.opts.secrets.add(tokens.refreshToken);
    }
    if (persist && this.opts.tokenStore) {
      try {
        void Promise.resolve(this.opts.tokenStore.save(tokens)).catch(() => undefined);
      } catch {
        // A failing store must not break requests.
      }
    }
  }

  private async loadStore(): Promise<void> {
    this.storeLoaded = true;
    if (!this.opts.tokenStore || this.tokens) return;
    const generation = this.generation;
    let stored: TokenSet | undefined;
    try {
      stored = await this.opts.tokenStore.load();
    } catch {
      return;
    }
    if (!stored || typeof stored.accessToken !== 'string' || generation !== this.generation || this.tokens) return;
    // A token issued to another application than the one configured is not ours to use.
    const expected = this.expectedClientId();
    if (expected !== undefined && stored.clientId !== expected) return;
    this.setTokens(stored, false);
  }

  /** The client id tokens for the current credentials are issued to. */
  private expectedClientId(): string | undefined {
    return this.credentials?.kind === 'client'
      ? this.credentials.clientId
      : this.credentials?.kind === 'password'
        ? this.opts.staticClientId
        : undefined;
  }

  private isExpired(t: TokenSet): boolean {
    return t.accessToken === '' || (t.expiresAt !== undefined && this.now() >= t.expiresAt);
  }

  private isExpiring(t: TokenSet): boolean {
    if (t.accessToken === '') return true;
    return this.renewAt !== undefined && this.now() >= this.renewAt;
  }

  private latchSignedOut(cause: PortalError, endpoint: string): PortalError {
    if (!this.signedOut) {
      const what =
        cause.code === 'invalid_client'
          ? l10n.t('the application was revoked or deleted')
          : cause.kind === 'two-factor-required' || cause.kind === 'two-factor-invalid'
            ? l10n.t('a new two-factor code is needed')
            : // The server's own words say why (e.g. "User is disabled"), which tells the user whom to ask.
              cause.serverMessage
              ? l10n.t(
                  'the portal refused the saved credentials ("{0}")',
                  quoteServerText(cause.serverMessage).replace(/\.$/, ''),
                )
              : l10n.t('the saved credentials were rejected');
      // Masked now, while the secrets are still known: this error outlives them (the UI shows and logs it),
      // and it quotes the server, which could echo a credential.
      this.signedOut = new PortalError({
        kind: 'signed-out',
        endpoint,
        ...(cause.status !== undefined ? { status: cause.status } : {}),
        ...(cause.serverMessage !== undefined ? { serverMessage: cause.serverMessage } : {}),
        ...(cause.code !== undefined ? { code: cause.code } : {}),
        // Every 'signed-out' error already says so in full ("You are signed out of …").
        message:
          cause.kind === 'signed-out'
            ? cause.message
            : l10n.t('You are signed out of {0}: {1}. Sign in again.', this.opts.host, what),
      }).mapTexts((text) => this.opts.secrets.redact(text));
      this.tokens = undefined;
      this.forgetCredentialSecrets();
      this.credentials = undefined;
      const signedOut = this.signedOut;
      const store = this.opts.tokenStore;
      if (store) {
        try {
          void Promise.resolve(store.save(undefined)).catch(() => undefined);
        } catch {
          // A failing store must not change the outcome.
        }
      }
      try {
        this.opts.onSignedOut?.(signedOut);
      } catch {
        // A throwing listener must not change the outcome of the request.
      }
    }
    return this.signedOutFor(endpoint);
  }

  private signedOutFor(endpoint: string): PortalError {
    const s = this.signedOut;
    if (!s)
      return new PortalError({
        kind: 'signed-out',
        endpoint,
        message: l10n.t('You are signed out of {0}. Sign in again.', this.opts.host),
      });
    return s.endpoint === endpoint ? s : s.withEndpoint(endpoint);
  }

  /** Errors from the shared renewal carry the token endpoint; a waiting caller reports its own endpoint. */
  private retag(e: unknown, endpoint: string): unknown {
    if (this.signedOut && isCredentialRejection(e)) return this.signedOutFor(endpoint);
    if (e instanceof PortalError && e.code === NOT_SIGNED_IN) return e.withEndpoint(endpoint);
    return e;
  }

  private dropUsedCode(): void {
    if (this.credentials?.kind === 'password' && this.credentials.code !== undefined) {
      const { code, ...rest } = this.credentials;
      this.opts.secrets.unpin(code);
      this.credentials = rest;
    }
  }

  private forgetCredentialSecrets(): void {
    const c = this.credentials;
    if (c?.kind === 'password') {
      this.opts.secrets.unpin(c.password);
      this.opts.secrets.unpin(c.code);
    } else if (c?.kind === 'client') {
      this.opts.secrets.unpin(c.clientSecret);
    }
  }
}
