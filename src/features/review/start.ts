/**
 * Access Review…: what the review starts from. The members come from the access store (what the access matrix read:
 * no request when it is filled); when the organisation was never read, or only in part, the review offers to read it
 * through the store's own read, within the request budget. Guest shares and pending invitations come from the
 * observed endpoints; a portal that refuses them (404: not offered; 403: not the sign-in's capability) is said once,
 * and the members are reviewed all the same. An unfinished review of the same organisation and scope is resumed.
 */
import * as vscode from 'vscode';
import type { PortalRegistry } from '../../auth/portalRegistry';
import { count } from '../../shared/format';
import { plain } from '../../shared/plainText';
import type { AccountRef } from '../../shared/refs';
import { answered, type Ui } from '../../ui/ui';
import type { AccessHandle, AccessView, PlacedOutsiders } from '../contracts';
import { Review, REVIEW_VERSION, type Refusal, type ReviewHead } from './core/model';
import type { ReviewFiles } from './core/reviewFiles';
import { newReviewId } from './core/reviewFiles';
import { guestRows, invitationRows, memberRows } from './core/rows';
import { cancellableProgress } from '../../ui/cancellableProgress';

export interface StartDeps {
  readonly registry: PortalRegistry;
  readonly access: AccessHandle;
  readonly files: ReviewFiles;
}

/** What a new review or a resumed one opens with: the review, and notes for its page. */
export interface Started {
  readonly review: Review;
  readonly notes: readonly string[];
  readonly resumed: boolean;
}

function unreadMembers(view: AccessView): number {
  if (view.listedAt <= 0) return Number.POSITIVE_INFINITY;
  let n = 0;
  for (const row of view.all()) if (row[9] <= 0) n++;
  return n;
}

/** Reads the organisation into the store when it is not (all) read; false when there is nothing to review. */
async function ensureRead(ui: Ui, access: AccessHandle, account: AccountRef): Promise<boolean> {
  if (unreadMembers(access.view(account)) === 0) return true;
  const cost = await access.cost(account, true);
  if (cost.reads + cost.pages === 0) return true;
  const yes = await ui.confirm({
    id: 'review.read.confirm',
    message: vscode.l10n.t(
      'The access of {0} has not been read yet: {1} member reads, {2}. Read it now?',
      plain(account.label),
      count(cost.reads),
      cost.etaWords,
    ),
    detail: vscode.l10n.t(
      'The portal tells a member\u2019s groups only one member at a time, and allows {0} requests every {1} minutes. What is read is kept for the access matrix too.',
      count(cost.limit),
      Math.round(cost.windowMs / 60_000),
    ),
    action: vscode.l10n.t('Read'),
  });
  if (!yes) return access.view(account).size > 0;
  const outcome = await cancellableProgress(
    ui,
    'review.read',
    vscode.l10n.t('Reading the access of {0}…', plain(account.label)),
    (_progress, signal) => access.refresh(account, signal),
  );
  return outcome === 'done' || access.view(account).size > 0;
}

/** The whole organisation, or one group of the store (by its name). */
async function pickScope(ui: Ui, view: AccessView, account: AccountRef): Promise<ReviewHead['scope']> {
  const groups = view.columns
    .map((name, i) => ({ name, label: view.label?.(i) ?? name }))
    .sort((a, b) => a.label.localeCompare(b.label));
  const chosen = answered(
    await ui.pick(
      [
        { label: vscode.l10n.t('The whole organisation'), value: '' },
        ...groups.map((g) => ({ label: g.label, description: g.name, value: g.name })),
      ],
      {
        id: 'review.scope',
        title: vscode.l10n.t('Review the access of {0}', plain(account.label)),
        placeHolder: vscode.l10n.t('The whole organisation, or one group'),
      },
    ),
  );
  return groups.find((g) => g.name === chosen);
}

function refusalWords(r: Refusal): string {
  return r === 'absent'
    ? vscode.l10n.t('this portal does not offer them')
    : vscode.l10n.t('your sign-in lacks the capability for them here');
}

/** The one sentence that says what the portal refused; undefined when it refused nothing. */
export function refusedWords(refused: ReviewHead['refused']): string | undefined {
  const { guests, invitations } = refused;
  if (guests && invitations && guests === invitations)
    return vscode.l10n.t('Guests and invitations are not part of this review: {0}.', refusalWords(guests));
  if (guests && invitations)
    return vscode.l10n.t(
      'Guests are not part of this review ({0}), nor invitations ({1}).',
      refusalWords(guests),
      refusalWords(invitations),
    );
  if (guests) return vscode.l10n.t('Guests are not part of this review: {0}.', refusalWords(guests));
  if (invitations) return vscode.l10n.t('Invitations are not part of this review: {0}.', refusalWords(invitations));
  return undefined;
}

/** The guests and invitations the access store holds (read within the budget when not fresh), as the matrix shows them. */
function readOthers(ui: Ui, access: AccessHandle, account: AccountRef): Promise<PlacedOutsiders> {
  return cancellableProgress(
    ui,
    'review.read.guests',
    vscode.l10n.t('Reading the guests and invitations of {0}…', plain(account.label)),
    (_progress, signal) => access.placedOutsiders(account, signal),
  );
}

/** A new review's head and rows. */
async function newReview(ui: Ui, deps: StartDeps, account: AccountRef, scope: ReviewHead['scope']): Promise<Review> {
  const view = deps.access.view(account);
  const connection = deps.registry.get(account.portalId);
  const labels = new Map(view.columns.map((name, i) => [name, view.label?.(i) ?? name]));
  const label = (name: string) => labels.get(name) ?? name;
  const others = scope ? undefined : await readOthers(ui, deps.access, account);
  const now = Date.now();
  const head: ReviewHead = {
    version: REVIEW_VERSION,
    id: newReviewId(account.accountId, now),
    portalId: account.portalId,
    portalLabel: connection?.entry.label ?? account.portalId,
    accountId: account.accountId,
    accountLabel: account.label,
    scope,
    reviewer: connection?.username ?? '',
    startedAt: now,
    refused: {
      guests: typeof others?.shares === 'string' ? others.shares : undefined,
      invitations: typeof others?.invitations === 'string' ? others.invitations : undefined,
    },
    groups: [...labels].map(([name, l]) => ({ name, label: l })).sort((a, b) => a.label.localeCompare(b.label)),
  };
  const rows = [
    ...memberRows(view, scope?.name, label),
    ...(others && typeof others.shares !== 'string' ? guestRows(others.shares, others.at) : []),
    ...(others && typeof others.invitations !== 'string'
      ? invitationRows(others.invitations, others.at, (id) => others.groupLabel(id))
      : []),
  ];
  const review = new Review(head, rows);
  await deps.files.save(review);
  return review;
}

/** Notes the page shows above the rows. */
export function notesOf(review: Review): string[] {
  const h = review.head;
  const refused = refusedWords(h.refused);
  return [
    ...(refused ? [refused] : []),
    ...(h.scope
      ? [
          vscode.l10n.t(
            'Guests and invitations are reviewed with the whole organisation: the portal does not say which group a share is in.',
          ),
        ]
      : h.refused.guests
        ? []
        : [
            vscode.l10n.t(
              'Guest shares are placed as the access matrix places them: by the group their context names, and named by the record\u2019s path where it could be read; a share the portal does not place is listed too.',
            ),
          ]),
  ];
}

/** Reads what is needed, asks the scope, and answers the review to open (resumed when one is unfinished). */
export async function startReview(ui: Ui, deps: StartDeps, account: AccountRef): Promise<Started | undefined> {
  if (!(await ensureRead(ui, deps.access, account))) {
    ui.notify(
      'info',
      vscode.l10n.t('There is nothing to review: no member of {0} has been read.', plain(account.label)),
    );
    return undefined;
  }
  const scope = await pickScope(ui, deps.access.view(account), account);
  const open = await deps.files.unfinished(account.portalId, account.accountId, scope?.name);
  if (open) return { review: open, notes: notesOf(open), resumed: true };
  const review = await newReview(ui, deps, account, scope);
  const refused = refusedWords(review.head.refused);
  if (refused) ui.notify('info', refused);
  return { review, notes: notesOf(review), resumed: false };
}
