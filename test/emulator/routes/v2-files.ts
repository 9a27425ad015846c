// v2 file listings and the single file record (spec 4.4; parameter names are this emulator's choice).
import { accountAccess, groupAccess } from '../access';
import { json, param, type ApiRequest, type Reply } from '../http';
import { fileInGroup, folderScope, listFiles, type Scope } from '../file-query';
import { fileListQuery } from '../profile';
import { paging, v2FileEnvelope } from '../query';
import type { RouteDef } from '../router';
import { fileV2 } from '../serialize-v2';
import type { World } from '../world';

function listing(req: ApiRequest, w: World, scopeOf: (groupScope: (raw: string) => number) => Scope): Reply {
  const access = accountAccess(req, w);
  const group = groupAccess(req, w, access);
  const scope = scopeOf((raw) => folderScope(w.store, group, raw));
  const p = paging(req.query);
  const { total, items } = listFiles(w.store, group, scope, fileListQuery(req, w), p);
  return json(v2FileEnvelope({ items, total, page: p.page, size: p.size }, (f) => fileV2(w, f, false)));
}

function root(req: ApiRequest, w: World): Reply {
  return listing(req, w, () => 0);
}

function children(req: ApiRequest, w: World): Reply {
  return listing(req, w, (folder) => folder(param(req, 'file')));
}

function single(req: ApiRequest, w: World): Reply {
  const access = accountAccess(req, w);
  const group = groupAccess(req, w, access);
  return json(fileV2(w, fileInGroup(w.store, group, param(req, 'file')), true));
}

export const v2FileRoutes: RouteDef[] = [
  { id: 'v2.files.list', method: 'GET', pattern: '/v2/accounts/:account/groups/:group/files', handler: root },
  { id: 'v2.file.get', method: 'GET', pattern: '/v2/accounts/:account/groups/:group/files/:file', handler: single },
  {
    id: 'v2.files.children',
    method: 'GET',
    pattern: '/v2/accounts/:account/groups/:group/files/:file/children',
    handler: children,
  },
];
