// Bearer-token authentication of API requests.
import { ApiError, type Caller } from './http';
import type { World } from './world';

const INVALID = { 'WWW-Authenticate': 'Bearer error="invalid_token"' };

export function authenticate(authorization: string | undefined, w: World, now: number): Caller {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (!match?.[1])
    throw new ApiError('unauthorized', 'Full authentication is required to access this resource', undefined, {
      'WWW-Authenticate': 'Bearer',
    });
  const token = w.tokens.checkAccess(match[1], now);
  if (!token) throw new ApiError('unauthorized', 'Invalid or expired access token', undefined, INVALID);
  const user = w.store.users.get(token.userId);
  // A disabled or locked user is signed out everywhere, not only at the next sign-in.
  if (!user || !user.enabled || user.locked)
    throw new ApiError('unauthorized', 'Invalid or expired access token', undefined, INVALID);
  if (token.clientId !== w.mobileClientId) {
    const app = w.store.applications.get(token.clientId);
    if (!app) throw new ApiError('unauthorized', 'Invalid or expired access token', undefined, INVALID);
    // Activity is not a data change: no revision bump, so caches and persistence stay quiet.
    app.lastActivity = now;
  }
  return { user, clientId: token.clientId };
}
