import * as vscode from 'vscode';
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

/** A supporting read in words: what was asked ("the organisation read") and what the form lacks without it. */
interface GapWords {
  readonly read: string;
  /** A clause: "its name is not shown". */
  readonly lost: string;
}

/**
 * What a form could not read, collected while it loads. A portal that keeps to the letter of its spec may lack a
 * read the form only uses to decorate (a display name, suggestions, custom names) or refuse it to this user: the
 * form then opens with what it has and says, in its notices, what the portal did not answer and what is missing.
 */
export class Gaps {
  private readonly said: string[] = [];

  get notices(): string[] {
    return [...this.said];
  }

  /**
   * The read's value; on a refusal or absence (any PortalError but 'signed-out' and 'cancelled'), the fallback
   * and a notice. Being signed out, or a bug, still fails the form.
   */
  async read<T>(read: Promise<T>, fallback: T, words: GapWords): Promise<T> {
    try {
      return await read;
    } catch (err) {
      if (!isPortalError(err) || err.kind === 'signed-out' || err.kind === 'cancelled') throw err;
      this.said.push(gapNotice(err.kind, errorMessage(err), words));
      return fallback;
    }
  }
}

function gapNotice(kind: string, message: string, words: GapWords): string {
  switch (kind) {
    case 'not-found':
      return vscode.l10n.t('The portal did not answer {0}; {1}.', words.read, words.lost);
    case 'forbidden':
      return vscode.l10n.t('The portal refused {0} to you; {1}.', words.read, words.lost);
    default:
      return vscode.l10n.t(
        'The portal did not answer {0} ({1}); {2}.',
        words.read,
        message.replace(/\.$/, ''),
        words.lost,
      );
  }
}
