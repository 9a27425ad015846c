import type { CustomNames, PortalClient, Subscription } from '../../../api';

/**
 * Account details that only tooltips and documents need: fetched on first hover, then kept (per client, so a new
 * sign-in starts over). A regular member gets 403 on the subscription; that is an answer too and is kept.
 */
export class AccountExtras {
  private readonly subscriptions = new Map<number, Promise<Subscription | { forbidden: true }>>();
  private readonly custom = new Map<number, Promise<CustomNames>>();
  private readonly customSettled = new Map<number, CustomNames>();

  constructor(private readonly client: PortalClient) {}

  subscription(accountId: number): Promise<Subscription | { forbidden: true }> {
    let p = this.subscriptions.get(accountId);
    if (!p) {
      p = this.client.v3.accounts.subscription(accountId).catch((error: unknown) => {
        if (isForbidden(error)) return { forbidden: true as const };
        this.subscriptions.delete(accountId); // a transient failure is asked again on the next hover
        throw error;
      });
      this.subscriptions.set(accountId, p);
    }
    return p;
  }

  customNames(accountId: number): Promise<CustomNames> {
    let p = this.custom.get(accountId);
    if (!p) {
      p = this.client.v2.accounts.custom(accountId).then(
        (names) => (this.customSettled.set(accountId, names), names),
        (error: unknown) => {
          this.custom.delete(accountId);
          throw error;
        },
      );
      this.custom.set(accountId, p);
    }
    return p;
  }

  /** Custom names already known, without asking (labels built during an expand must not cost a request). */
  knownCustomNames(accountId: number): CustomNames | undefined {
    return this.customSettled.get(accountId);
  }

  /** The organisation's members changed: its member figures are asked again on the next hover. */
  forgetSubscription(accountId: number): void {
    this.subscriptions.delete(accountId);
  }

  clear(accountId?: number): void {
    if (accountId === undefined) {
      this.subscriptions.clear();
      this.custom.clear();
      this.customSettled.clear();
    } else {
      this.subscriptions.delete(accountId);
      this.custom.delete(accountId);
      this.customSettled.delete(accountId);
    }
  }
}

function isForbidden(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { kind?: unknown }).kind === 'forbidden';
}
