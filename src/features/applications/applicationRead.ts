/**
 * One application of the signed-in user, for its details document and its form. A portal may offer no
 * single-application read (the spec marks it "not shown"): the application list, one request, holds the same
 * details. Pure: no VS Code here.
 */
import * as l10n from '@vscode/l10n';
import { isPortalError, PortalError } from '../../api/errors';
import type { Application, PortalClient } from '../../api';

export interface ApplicationRead {
  readonly application: Application;
  /** True when the portal did not answer the single read and the details come from the list. */
  readonly fromList: boolean;
}

export async function readApplication(client: PortalClient, clientId: string): Promise<ApplicationRead> {
  try {
    return { application: await client.v3.applications.get(clientId), fromList: false };
  } catch (err) {
    if (!isPortalError(err, 'not-found')) throw err;
  }
  const application = (await client.v3.applications.list()).find((a) => a.clientId === clientId);
  if (!application) {
    throw new PortalError({
      kind: 'not-found',
      endpoint: 'GET /v3/applications',
      message: l10n.t('The portal does not list this application for you any more; it may have been deleted.'),
    });
  }
  return { application, fromList: true };
}
