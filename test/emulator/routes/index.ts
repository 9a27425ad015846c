// The full route table.
import { Router } from '../router';
import { oauthRoutes } from './oauth';
import { v2AccountRoutes } from './v2-accounts';
import { v2FileRoutes } from './v2-files';
import { v2GroupRoutes } from './v2-groups';
import { v2MemberRoutes } from './v2-members';
import { v3AccountRoutes } from './v3-accounts';
import { v3ApplicationRoutes } from './v3-applications';
import { v3FileRoutes } from './v3-files';
import { v3MemberRoutes } from './v3-members';

export function buildRouter(): Router {
  return new Router()
    .add(oauthRoutes)
    .add(v3AccountRoutes).add(v3ApplicationRoutes).add(v3MemberRoutes).add(v3FileRoutes)
    .add(v2AccountRoutes).add(v2GroupRoutes).add(v2MemberRoutes).add(v2FileRoutes);
}
