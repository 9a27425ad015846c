// v3 applications (spec 4.2, 2.6). A user sees only their own applications; another user's id is a 404.
import { randomBytes } from 'node:crypto';
import { callerOf, empty, json, notFound, param, type ApiRequest, type Reply } from '../http';
import { APPLICATION_BLANKS, type Application } from '../model';
import { plainList } from '../profile';
import type { RouteDef } from '../router';
import { applicationV3 } from '../serialize-v3';
import { BodyReader } from '../validate';
import type { World } from '../world';
import { readApplicationFields, type ApplicationFields } from './application-fields';

const newSecret = (): string => randomBytes(30).toString('base64url');

export function newApplication(req: ApiRequest, w: World, fields: ApplicationFields): Application {
  const app: Application = {
    clientId: `${w.service}-${randomBytes(12).toString('hex')}`,
    clientSecret: newSecret(),
    ownerId: callerOf(req).user.id,
    name: fields.name ?? 'Application',
    ...APPLICATION_BLANKS,
    platform: 'OTHER',
    deviceType: 'Other',
    ip: req.remoteAddress,
    dateCreated: req.now,
    scope: ['read', 'write'],
    ...fields,
  };
  w.store.addApplication(app);
  return app;
}

function ownApplication(req: ApiRequest, w: World): Application {
  const id = param(req, 'application');
  const app = w.store.applications.get(id);
  if (!app || app.ownerId !== callerOf(req).user.id) throw notFound(`Application ${id} not found`);
  return app;
}

function create(req: ApiRequest, w: World): Reply {
  const r = new BodyReader(req.body);
  const fields = readApplicationFields(r, true, false);
  r.done();
  return json(applicationV3(w, newApplication(req, w, fields), true), 201);
}

function list(req: ApiRequest, w: World): Reply {
  const apps = w.store.applicationsOf(callerOf(req).user.id);
  return json(plainList(req, w, apps).map((a) => applicationV3(w, a, false)));
}

function get(req: ApiRequest, w: World): Reply {
  return json(applicationV3(w, ownApplication(req, w), false));
}

/** A rotated secret replaces the old one at once; tokens already issued stay valid until they expire. */
function update(req: ApiRequest, w: World): Reply {
  const app = ownApplication(req, w);
  const r = new BodyReader(req.body);
  const fields = readApplicationFields(r, false, false);
  const rotate = r.boolean('rotateSecret') === true;
  r.done();
  w.store.updateApplication(app, rotate ? { ...fields, clientSecret: newSecret() } : fields);
  return json(applicationV3(w, app, rotate));
}

function remove(req: ApiRequest, w: World): Reply {
  const app = ownApplication(req, w);
  w.store.deleteApplication(app.clientId);
  w.tokens.killClient(app.clientId);
  return empty();
}

export const v3ApplicationRoutes: RouteDef[] = [
  { id: 'v3.application.create', method: 'POST', pattern: '/v3/applications', handler: create },
  { id: 'v3.applications.list', method: 'GET', pattern: '/v3/applications', handler: list },
  { id: 'v3.application.get', method: 'GET', pattern: '/v3/applications/:application', handler: get },
  { id: 'v3.application.update', method: 'PATCH', pattern: '/v3/applications/:application', handler: update },
  { id: 'v3.application.delete', method: 'DELETE', pattern: '/v3/applications/:application', handler: remove },
];
