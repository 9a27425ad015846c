import type { PortalClient } from '../../api';
import type { PortalRegistry } from '../../auth/portalRegistry';

/**
 * The portal and account a form was opened for. The host keeps it; the webview only echoes ids, and any id
 * it sends that does not match is refused.
 */
export interface AccountContext {
  readonly registry: PortalRegistry;
  readonly portalId: string;
  readonly accountId: number;
}

/** The client of the form's portal, fetched per call so a sign-out in between fails cleanly ('signed-out'). */
export function clientOf(ctx: Pick<AccountContext, 'registry' | 'portalId'>): PortalClient {
  return ctx.registry.client(ctx.portalId);
}

/** Reads at most `limit` items of a paged walk; the second value says whether more were left. */
export async function takeBounded<T>(iterable: AsyncIterable<T>, limit: number): Promise<[T[], boolean]> {
  const out: T[] = [];
  for await (const item of iterable) {
    if (out.length >= limit) return [out, true];
    out.push(item);
  }
  return [out, false];
}
