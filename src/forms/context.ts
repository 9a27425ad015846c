import { isPortalError, type PortalClient } from '../api';
import { errorMessage } from '../shared/errors';
import type { PortalRegistry } from '../auth/portalRegistry';

/**
 * The portal and account a form was opened for. The host keeps it; the webview only echoes ids, and any id
 * it sends that does not match is refused.
 */
export interface AccountContext {
  readonly registry: PortalRegistry;
  readonly portalId: string;
  readonly accountId: number;
  /** The portal accepted a change: the feature that owns the form shows it in its view. */
  readonly afterSave: () => void;
}

/** The client of the form's portal, fetched per call so a sign-out in between fails cleanly ('signed-out'). */
export function clientOf(ctx: Pick<AccountContext, 'registry' | 'portalId'>): PortalClient {
  return ctx.registry.client(ctx.portalId);
}

/**
 * A read the form can do without (tag suggestions, custom names, a subscription a plain member may not see):
 * a refusal by the portal gives the fallback and says why; being signed out, or a bug, still fails the form.
 */
export async function readOr<T>(read: Promise<T>, fallback: T): Promise<[T, string | null]> {
  try {
    return [await read, null];
  } catch (err) {
    if (isPortalError(err) && err.kind !== 'signed-out') return [fallback, errorMessage(err)];
    throw err;
  }
}
