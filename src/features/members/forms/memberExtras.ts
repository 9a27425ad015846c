/**
 * The host side of the member form's extra fields: the groups a new member joins, when their activation e-mail
 * goes out, and switching an existing member's two-factor authentication off.
 *
 * Why a v3 create followed by a v3 PATCH for the activation: the v3 create body has no activation fields, while v2's
 * create (which has them) names groups by *name* (a group renamed since the form loaded would be lost) and takes
 * no tags, real name or new-groups permission. So the member is created with v3, with everything the form holds
 * and the groups by id; only when the e-mail is to go out later, or to carry a message, does one PATCH
 * `activation {date, message}` follow at once, on the same v3 resource. "Now" without a message is the create's
 * own default and needs no second request. If that PATCH fails, the member exists with the default (an e-mail
 * now), and the form says so rather than offering a second create.
 */
import * as vscode from 'vscode';
import {
  collect,
  type FieldError,
  type GroupAssignments,
  type MemberUpdate,
  type PortalClient,
} from '../../../api/index';
import { groupLevelPatch } from '../../../shared/groupLevel';
import { errorMessage } from '../../../shared/errors';
import { shortDate } from '../../../shared/format';
import type { Ui } from '../../../ui/ui';
import type { MemberFormState, MemberValues } from './member.protocol';
import type { MemberExtraState } from './memberExtras.protocol';
import type { MemberEdit } from '../../../engine/members/edits';
import { saveEdit, type WriteContext } from './writeContext';

/** Groups the form lists at most; an organisation with more says so (v2 lists groups without a search). */
const MAX_FORM_GROUPS = 1_000;

/** The groups a new member can join, sorted by name. */
export async function groupsToJoin(
  client: PortalClient,
  accountId: number,
): Promise<Pick<MemberExtraState, 'groups' | 'groupsTruncated'>> {
  const listed = await collect(client.v2.groups.iterate(accountId), MAX_FORM_GROUPS + 1);
  const groups = listed.slice(0, MAX_FORM_GROUPS).sort((a, b) => a.friendlyName.localeCompare(b.friendlyName));
  return {
    groups: groups.map((g) => ({ id: g.id, name: g.name, friendlyName: g.friendlyName })),
    groupsTruncated: listed.length > MAX_FORM_GROUPS,
  };
}

/** A reason to drop a create that names a group the form did not offer; undefined when it is fine. */
export function foreignGroup(state: MemberFormState, v: MemberValues): string | undefined {
  if (v.groupsMode !== 'chosen') return undefined;
  const known = new Set(state.groups.map((g) => g.id));
  const seen = new Set<number>();
  for (const g of v.groups) {
    if (!known.has(g.id) || seen.has(g.id)) return 'it names a group that is not in this account, or one twice';
    seen.add(g.id);
  }
  return undefined;
}

/** The create body's group fields: administrators by id list, basic and standard as a map of group id to rights. */
export function groupFields(v: MemberValues): GroupAssignments {
  if (v.groupsMode === 'all')
    return v.allGroupsLevel === 16
      ? { assignToAllGroupsWithAdmin: true }
      : { assignToAllGroupsWithRights: v.allGroupsLevel };
  if (v.groupsMode !== 'chosen') return {};
  // A new member joins only the groups with a level: "not in it" is no field at all.
  return groupLevelPatch(v.groups.filter((g) => g.permission !== 0).map((g) => [g.id, g.permission] as const));
}

/** Field errors of the activation before anything is sent. */
/** A later activation must be later than now: checked with the other fields, before anything is sent. */
export function activationProblems(v: MemberValues, now = Date.now()): FieldError[] {
  return v.activation === 'date' && v.activationDate <= now
    ? [{ field: 'activationDate', message: vscode.l10n.t('Choose a date and time in the future.') }]
    : [];
}

/**
 * Sends the activation PATCH when the form asks for more than the create's default; returns what to add to the
 * success message (a failure included: the member exists either way).
 */
export async function scheduleActivation(ctx: WriteContext, username: string, v: MemberValues): Promise<string> {
  const message = v.activationMessage.trim();
  const later = v.activation === 'date';
  if (!later && !message) return '';
  const activation: NonNullable<MemberUpdate['activation']> = {
    ...(later ? { date: v.activationDate } : {}),
    ...(message ? { message } : {}),
  };
  try {
    // Sent through the engine like every member write; there is nothing to put back, so its undo is empty.
    const edit: MemberEdit = {
      username,
      action: 'update',
      before: null,
      after: { fields: {}, groups: {} },
      requests: [{ method: 'v3.update', body: { activation } }],
    };
    await saveEdit(ctx, vscode.l10n.t('Schedule the activation of {0}', username), edit);
  } catch (error) {
    return vscode.l10n.t(
      'The activation e-mail could not be scheduled ({0}); it goes out now, as for any new member.',
      errorMessage(error),
    );
  }
  return later
    ? vscode.l10n.t('The activation e-mail goes out {0}.', shortDate(v.activationDate))
    : vscode.l10n.t('The activation e-mail carries your message.');
}

/** Edit Member: the PATCH field that switches two-factor authentication off, once the user confirmed it. */
export async function twoFactorUpdate(
  ui: Ui,
  state: MemberFormState,
  v: MemberValues,
): Promise<Pick<MemberUpdate, 'disableTwoFactorAuthentication'>> {
  if (!v.disableTwoFactor || !state.twoFactor) return {};
  const who = state.values.name || state.values.username;
  const yes = await ui.confirm({
    id: 'member.twoFactor.confirm',
    message: vscode.l10n.t('Disable two-factor authentication for {0}?', who),
    detail: vscode.l10n.t(
      '{0} then signs in with their password alone until they set up a second factor again. Do this only for a member you know lost theirs.',
      who,
    ),
    action: vscode.l10n.t('Disable Two-Factor Authentication'),
  });
  return yes ? { disableTwoFactorAuthentication: true } : {};
}
