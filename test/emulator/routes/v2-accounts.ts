// v2 applications, organisations and custom component names (spec 4.4).
import { accountAccess } from '../access';
import { json, type ApiRequest, type Reply } from '../http';
import { plainList } from '../profile';
import type { RouteDef } from '../router';
import { applicationV2, organisationV2 } from '../serialize-v2';
import { BodyReader } from '../validate';
import type { World } from '../world';
import { readApplicationFields } from './application-fields';
import { accountsOfCaller } from './v3-accounts';
import { newApplication } from './v3-applications';

function createApplication(req: ApiRequest, w: World): Reply {
  const r = new BodyReader(req.body);
  const fields = readApplicationFields(r, true, true);
  r.done();
  return json(applicationV2(w, newApplication(req, w, fields)));
}

function listOrganisations(req: ApiRequest, w: World): Reply {
  return json(plainList(req, w, accountsOfCaller(req, w)).map((a) => organisationV2(w, a)));
}

function getOrganisation(req: ApiRequest, w: World): Reply {
  return json(organisationV2(w, accountAccess(req, w).account));
}

function custom(req: ApiRequest, w: World): Reply {
  return json({ ...accountAccess(req, w).account.custom });
}

export const v2AccountRoutes: RouteDef[] = [
  { id: 'v2.application.create', method: 'POST', pattern: '/v2/applications', handler: createApplication },
  { id: 'v2.organisations.list', method: 'GET', pattern: '/v2/accounts', handler: listOrganisations },
  { id: 'v2.organisation.get', method: 'GET', pattern: '/v2/accounts/:account', handler: getOrganisation },
  { id: 'v2.custom', method: 'GET', pattern: '/v2/accounts/:account/custom', handler: custom },
];
