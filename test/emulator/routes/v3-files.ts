// File content download as seen in the wild: GET /v3/groups/{group}/files/{file}/download.
import { canSeeGroup } from '../access';
import { badRequest, callerOf, idParam, notFound, param, type ApiRequest, type Reply } from '../http';
import { fileBytes } from '../content';
import { fileInGroup } from '../file-query';
import { FOLDER, type Group } from '../model';
import type { RouteDef } from '../router';
import type { World } from '../world';

function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** The caller and the group the path names, when the caller may see it; a group they may not see is not found. */
export function seenGroup(req: ApiRequest, w: World): { user: ReturnType<typeof callerOf>['user']; group: Group } {
  const { user } = callerOf(req);
  const groupId = idParam(req, 'group', 'Group');
  const group = w.store.groups.get(groupId);
  const membership = group ? w.store.membership(group.accountId, user.id) : undefined;
  const account = group ? w.store.accounts.get(group.accountId) : undefined;
  if (!group || !membership || !account || !canSeeGroup({ account, membership }, group))
    throw notFound(`Group ${groupId} not found`);
  return { user, group };
}

function download(req: ApiRequest, w: World): Reply {
  const { group } = seenGroup(req, w);
  const f = fileInGroup(w.store, group, param(req, 'file'));
  if (f.contentType === FOLDER) throw badRequest(`${f.name} is a folder; only files can be downloaded`);
  const bytes = fileBytes(f);
  return {
    kind: 'bytes',
    status: 200,
    bytes,
    headers: { 'Content-Type': f.contentType, 'Content-Disposition': contentDisposition(f.name) },
  };
}

export const v3FileRoutes: RouteDef[] = [
  { id: 'v3.file.download', method: 'GET', pattern: '/v3/groups/:group/files/:file/download', handler: download },
];
