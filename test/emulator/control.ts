// The loopback-only control endpoint under /__emulator/ (faults, tokens, stats, reset, another's file edit).
import { badRequest, empty, json, notFound, type ApiRequest, type Reply } from './http';
import { parseRules } from './faults';
import {
  SEEDS,
  type EmulatorStats,
  type FaultRule,
  type FileEdit,
  type Profile,
  type RouteId,
  type SeedName,
} from './types';
import { isPlainObject } from './validate';
import { parseFileEdit } from './fileEdits';

export interface ControlTarget {
  setFaults(rules: FaultRule[]): void;
  clearFaults(): void;
  faultRules(): FaultRule[];
  expireAllTokens(): void;
  revokeApplication(clientId: string): boolean;
  stats(): EmulatorStats;
  resetStats(): void;
  reset(seed?: SeedName): void;
  describe(): { profile: Profile; missingReads: RouteId[]; seed: SeedName };
  editFile(edit: FileEdit): void;
}

function jsonObject(req: ApiRequest): Record<string, unknown> {
  const text = req.rawBody.toString('utf8').trim();
  if (text === '') return {};
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw badRequest('Malformed JSON body');
  }
  if (!isPlainObject(v)) throw badRequest('The request body must be a JSON object');
  return v;
}

export function control(target: ControlTarget, req: ApiRequest): Reply {
  const route = `${req.method} ${req.path}`;
  switch (route) {
    case 'GET /__emulator/faults':
      return json({ rules: target.faultRules() });
    case 'POST /__emulator/faults': {
      const rules = parseRules(jsonObject(req).rules);
      target.setFaults(rules);
      return json({ rules: target.faultRules() });
    }
    case 'DELETE /__emulator/faults':
      target.clearFaults();
      return empty();
    case 'POST /__emulator/expire-tokens':
      target.expireAllTokens();
      return empty();
    case 'POST /__emulator/revoke': {
      const { clientId } = jsonObject(req);
      if (typeof clientId !== 'string' || clientId === '')
        throw badRequest('clientId is required', [{ field: 'clientId', message: 'is required' }]);
      if (!target.revokeApplication(clientId)) throw notFound(`Application ${clientId} not found`);
      return empty();
    }
    case 'GET /__emulator/profile':
      return json(target.describe());
    case 'GET /__emulator/stats':
      return json(target.stats());
    case 'POST /__emulator/stats/reset':
      target.resetStats();
      return empty();
    case 'POST /__emulator/files/edit':
      target.editFile(parseFileEdit(jsonObject(req)));
      return empty();
    case 'POST /__emulator/reset': {
      const { seed } = jsonObject(req);
      if (seed !== undefined && !SEEDS.includes(seed as SeedName))
        throw badRequest(`seed must be one of ${SEEDS.join(', ')}`, [
          { field: 'seed', message: `must be one of ${SEEDS.join(', ')}` },
        ]);
      target.reset(seed as SeedName | undefined);
      return empty();
    }
    default:
      throw notFound(`No control endpoint ${route}`);
  }
}
