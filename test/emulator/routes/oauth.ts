// The token endpoint (spec 4.1 and 5): password, client-credentials and refresh grants, by GET
// query or POST form. Its errors are OAuth-shaped ({error, error_description}), not the API's.
import { shapedError } from '../error-shapes';
import type { ApiRequest, Reply } from '../http';
import { expiresIn } from '../profile';
import type { User } from '../model';
import { checkPassword } from '../secrets';
import type { RouteDef } from '../router';
import type { World } from '../world';

const DEFAULT_SCOPE = 'read write';

function oauthError(status: number, error: string, description?: string): Reply {
  return {
    kind: 'json',
    status,
    body: description === undefined ? { error } : { error, error_description: description },
  };
}

/** Form-body parameters override query parameters of the same name. */
function tokenParams(req: ApiRequest): URLSearchParams {
  const params = new URLSearchParams(req.query);
  const type = String(req.headers['content-type'] ?? '').toLowerCase();
  if (req.method === 'POST' && type.startsWith('application/x-www-form-urlencoded')) {
    for (const [k, v] of new URLSearchParams(req.rawBody.toString('utf8'))) params.set(k, v);
  }
  return params;
}

function userStateError(u: User): Reply | undefined {
  if (!u.enabled) return oauthError(400, 'invalid_grant', 'User is disabled');
  if (u.locked) return oauthError(400, 'invalid_grant', 'User account is locked');
  return undefined;
}

function issue(w: World, u: User, clientId: string, scope: string, now: number, refreshToken?: string): Reply {
  const body = w.tokens.issue(u.id, clientId, scope, now, refreshToken);
  body.expires_in = expiresIn(w.profile, body.expires_in);
  return { kind: 'json', status: 200, body, headers: { 'Cache-Control': 'no-store' } };
}

function passwordGrant(p: URLSearchParams, w: World, now: number): Reply {
  if (p.get('client_id') !== w.mobileClientId)
    return oauthError(401, 'invalid_client', `The password grant needs client_id ${w.mobileClientId}`);
  const username = p.get('username');
  const password = p.get('password');
  if (!username || password === null) return oauthError(400, 'invalid_request', 'Missing username or password');
  const user = w.store.userByUsername(username);
  // Password first, account state second, so a wrong password never reveals whether an account is locked.
  if (!user || !checkPassword(user.id, user.passwordHash, password))
    return oauthError(400, 'invalid_grant', 'Bad credentials');
  const stateError = userStateError(user);
  if (stateError) return stateError;
  if (user.twoFactorCode !== null) {
    const code = p.get('code');
    if (code === null || code === '') return oauthError(400, 'missing_2fa');
    if (code !== user.twoFactorCode) return oauthError(400, 'invalid_2fa');
  }
  w.store.updateUser(user, { lastLogin: now, lastActive: now });
  return issue(w, user, w.mobileClientId, DEFAULT_SCOPE, now);
}

function clientCredentialsGrant(p: URLSearchParams, w: World, now: number): Reply {
  const app = w.store.applications.get(p.get('client_id') ?? '');
  if (!app || p.get('client_secret') !== app.clientSecret)
    return oauthError(401, 'invalid_client', 'Bad client credentials');
  const owner = w.store.users.get(app.ownerId);
  if (!owner) return oauthError(401, 'invalid_client', 'Bad client credentials');
  const stateError = userStateError(owner);
  if (stateError) return stateError;
  const scope = (p.get('scope') ?? DEFAULT_SCOPE).trim() || DEFAULT_SCOPE;
  const unknown = scope.split(/\s+/).filter((s) => !app.scope.includes(s));
  if (unknown.length > 0) return oauthError(400, 'invalid_scope', `Invalid scope: ${unknown.join(' ')}`);
  app.lastActivity = now;
  return issue(w, owner, app.clientId, scope, now);
}

function refreshGrant(p: URLSearchParams, w: World, now: number): Reply {
  const token = p.get('refresh_token');
  if (!token) return oauthError(400, 'invalid_request', 'Missing refresh_token');
  const clientId = p.get('client_id');
  if (!clientId) return oauthError(401, 'invalid_client', 'Missing client_id');
  const record = w.tokens.checkRefresh(token, now);
  if (!record) return oauthError(401, 'invalid_token', 'Invalid refresh token');
  if (record.clientId !== clientId) return oauthError(400, 'invalid_grant', 'Wrong client for this refresh token');
  if (clientId !== w.mobileClientId) {
    const app = w.store.applications.get(clientId);
    if (!app) return oauthError(401, 'invalid_token', 'Invalid refresh token');
    const secret = p.get('client_secret');
    if (secret !== null && secret !== app.clientSecret)
      return oauthError(401, 'invalid_client', 'Bad client credentials');
    app.lastActivity = now;
  }
  const user = w.store.users.get(record.userId);
  if (!user) return oauthError(401, 'invalid_token', 'Invalid refresh token');
  const stateError = userStateError(user);
  if (stateError) return stateError;
  return issue(w, user, clientId, record.scope, now, token);
}

function tokenEndpoint(req: ApiRequest, w: World): Reply {
  // The spec's token endpoint is GET with query parameters only; POST is an observed extra.
  if (w.profile === 'literal' && req.method === 'POST') return shapedError(405, 'empty', undefined, { Allow: 'GET' });
  const p = tokenParams(req);
  const grant = p.get('grant_type');
  switch (grant) {
    case 'password':
      return passwordGrant(p, w, req.now);
    case 'client_credentials':
      return clientCredentialsGrant(p, w, req.now);
    case 'refresh_token':
      return refreshGrant(p, w, req.now);
    case null:
    case '':
      return oauthError(400, 'invalid_request', 'Missing grant_type');
    default:
      return oauthError(400, 'unsupported_grant_type', `Unsupported grant type: ${grant}`);
  }
}

export const oauthRoutes: RouteDef[] = [
  { id: 'oauth.token', method: 'GET', pattern: '/oauth/token', handler: tokenEndpoint, auth: false },
  {
    id: 'oauth.token.post',
    method: 'POST',
    pattern: '/oauth/token',
    handler: tokenEndpoint,
    auth: false,
    jsonBody: false,
  },
];
