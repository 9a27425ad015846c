/**
 * One person outside an organisation's member list who can reach it: a guest with a share of its content, or a
 * pending invitation (*Invited*), in words, as the access matrix, its CSV and chat's answers read it. The access
 * store's outsiders (features/members/access/outsiders) make these rows. Pure: the matrix's webview reads it too.
 */
/** One row of the outsiders' table: server text (`email`, names in `what`) stays as sent; the page sets it as text. */
export interface OutsiderRow {
  readonly key: string;
  readonly kind: 'guest' | 'invited';
  readonly email: string;
  /** Guest: the record by its path, or contentContext as sent. Invited: the groups and levels the invite grants. */
  readonly what: string;
  /** Guest: the content rights in words. Invited: the organisation permission the invite grants. */
  readonly permission: string;
  readonly canEdit: boolean;
  /** Invited: the invite grants more than a Member has (as a plan names it). */
  readonly power: boolean;
  /** ms; -1 when the portal did not say. */
  readonly created: number;
  /** ms; -1 for no expiry date (guest) or none (invited). */
  readonly expires: number;
  /** 1 password set, 0 none, -1 not said (and not asked of an invitation). */
  readonly password: 1 | 0 | -1;
  /** The unique names of the groups it reaches: the share's group, the invite's groups. */
  readonly groups: readonly string[];
}
