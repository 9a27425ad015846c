// A seed's quirks (see Quirks in model.ts) applied to a request: a trapped write is refused with
// the seed's message, a quirky list answers more rows than asked for.
import { ApiError, type ApiRequest, type Reply } from './http';
import { oversize } from './oversize';
import type { Store } from './store';

/** Throws the seed's error for a trapped method and path; runs after authentication. */
export function springTrap(store: Store, method: string, path: string): void {
  const trap = store.quirks.errors.find((t) => t.method === method && t.path === path);
  if (trap) throw new ApiError(trap.code, trap.message);
}

export function oversizedByQuirk(store: Store, req: ApiRequest, reply: Reply): Reply {
  if (req.method !== 'GET') return reply;
  const quirk = store.quirks.oversized.find((q) => q.path === req.path);
  return quirk ? oversize(reply, req.query, quirk.factor) : reply;
}
