/** The Applications view's rows: the signed-in user's applications, one request for the whole list. */
import type { Application, PortalClient } from '../../api';
import { requestOptions as opts, whole, type PageFetcher } from '../../views/paging';

export interface ApplicationRow {
  readonly clientId: string;
  readonly name: string;
  readonly description: string;
  readonly platform: string;
  readonly deviceType: string;
  readonly lastActivity: number | null;
}

function applicationRow(a: Application): ApplicationRow {
  return {
    clientId: a.clientId,
    name: a.name || a.clientId,
    description: a.description,
    platform: a.platform,
    deviceType: a.deviceType,
    lastActivity: a.lastActivity,
  };
}

export function applicationsFetcher(client: PortalClient): PageFetcher<ApplicationRow> {
  return whole(async (signal) => (await client.v3.applications.list(opts(signal))).map(applicationRow));
}
