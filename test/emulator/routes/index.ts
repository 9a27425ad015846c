// The full route table.
import { Router, type RouteDef } from '../router';
import type { RouteId } from '../types';
import { oauthRoutes } from './oauth';
import { v2AccountRoutes } from './v2-accounts';
import { v2FileRoutes } from './v2-files';
import { v2GroupRoutes } from './v2-groups';
import { v2MemberRoutes } from './v2-members';
import { v3AccountRoutes } from './v3-accounts';
import { v3ApplicationRoutes } from './v3-applications';
import { v3FileRoutes } from './v3-files';
import { v3MemberRoutes } from './v3-members';
import { uploadRoutes } from './uploads';
import { observedAccessRoutes } from './observed-access';

const ALL_ROUTES: readonly RouteDef[] = [
  ...oauthRoutes,
  ...v3AccountRoutes,
  ...v3ApplicationRoutes,
  ...v3MemberRoutes,
  ...v3FileRoutes,
  ...v2AccountRoutes,
  ...v2GroupRoutes,
  ...v2MemberRoutes,
  ...v2FileRoutes,
  ...uploadRoutes,
  ...observedAccessRoutes,
];

/** A portal without the `missing` routes: they answer like any unknown path. */
export function buildRouter(missing: ReadonlySet<RouteId> = new Set()): Router {
  return new Router().add(ALL_ROUTES.filter((r) => !missing.has(r.id)));
}

/** For a test that every id in ROUTE_IDS names exactly one route. */
export function routeIds(): RouteId[] {
  return ALL_ROUTES.map((r) => r.id);
}
