/**
 * What only v2's member detail says about a member (last sign-in, the two-factor mode), fetched when a person
 * hovers the row: one request per member at most, kept while the view lives. A failed read is kept too, so
 * hovering again does not ask again; the tooltip then shows what the list row knows.
 */
import type { MemberV2, PortalClient } from '../../../api/index';
import type { AccountRef } from '../../../shared/refs';

/** Members whose detail is kept at once; the oldest is dropped first. */
const MAX_KEPT = 500;

export interface MemberDetail {
  readonly lastLogin: number | null;
  /** SMS or Authenticator; null when off or not given. */
  readonly twoFactorMode: string | null;
  readonly twoFactor: boolean;
  readonly dateActivated: number | null;
}

type Account = Pick<AccountRef, 'portalId' | 'accountId'>;

const keyOf = (a: Account, username: string): string => JSON.stringify([a.portalId, a.accountId, username]);

function detailOf(m: MemberV2): MemberDetail {
  return {
    lastLogin: m.user.lastLogin,
    twoFactorMode: m.user.twoFactorMode,
    twoFactor: m.user.twoFactorAuthentication,
    dateActivated: m.user.dateActivated,
  };
}

export class MemberDetails {
  private readonly kept = new Map<string, Promise<MemberDetail | undefined>>();

  /** The detail, from the one request made for this member; undefined when the portal would not give it. */
  get(client: PortalClient, account: Account, username: string): Promise<MemberDetail | undefined> {
    const key = keyOf(account, username);
    const known = this.kept.get(key);
    if (known) return known;
    const read = client.v2.members.get(account.accountId, username).then(detailOf, () => undefined);
    this.kept.set(key, read);
    if (this.kept.size > MAX_KEPT) {
      const oldest = this.kept.keys().next().value;
      if (oldest !== undefined) this.kept.delete(oldest);
    }
    return read;
  }

  /** The member changed: the next hover asks again. */
  forget(account: Account, username: string): void {
    this.kept.delete(keyOf(account, username));
  }

  clear(): void {
    this.kept.clear();
  }
}
