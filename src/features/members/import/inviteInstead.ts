/**
 * The import's "invite instead of create" (Import Members from a Spreadsheet as Invitations…): the people the members
 * file would create are invited instead, through the invitation job (its own plan and confirmation). Invited people
 * leave the file, which keeps the members already there; each is invited as a Member, to the groups and at the
 * levels their row gives. A command of its own rather than a question in the import, so an import with a saved
 * mapping still asks nothing.
 */
import * as vscode from 'vscode';
import type { Invitee } from '../../../engine/invitations/index';
import { plain } from '../../../shared/plainText';
import type { AccountRef } from '../../../shared/refs';
import { inviteJob, type InviteDeps } from '../invite/inviteJob';
import { count } from '../../../shared/format';
import type { Ui } from '../../../ui/ui';
import { AccountPermission } from '../../../api/index';
import { groupNameOf, parseMembersFile, readGroupWord, valueOf } from '../plan/core/file/membersFile';
import type { PortalGroup } from '../plan/core/model';

export interface Split {
  /** The members file without the people invited. */
  readonly text: string;
  readonly invitees: readonly Invitee[];
}

/** The new people of a members file written by the import (every row but those of `existing`), as invitations. */
export function splitNewPeople(text: string, existing: readonly string[], groups: readonly PortalGroup[]): Split {
  const file = parseMembersFile(text);
  const already = new Set(existing.map((u) => u.toLowerCase()));
  const groupIds = new Map(groups.map((g) => [g.name.toLowerCase(), String(g.id)]));
  const firstRow = file.rows[0]?.start ?? file.text.length;
  let kept = file.text.slice(0, firstRow);
  const invitees: Invitee[] = [];
  file.rows.forEach((row, i) => {
    const end = file.rows[i + 1]?.start ?? file.text.length;
    const username = (valueOf(file, row, 'username') ?? '').toLowerCase();
    if (already.has(username)) {
      kept += file.text.slice(row.start, end);
      return;
    }
    const levels: Record<string, number> = {};
    for (const [key] of file.columns) {
      const name = groupNameOf(key);
      const id = name === undefined ? undefined : groupIds.get(name.toLowerCase());
      const level = readGroupWord(valueOf(file, row, key) ?? '');
      if (id !== undefined && level) levels[id] = level;
    }
    invitees.push({ email: valueOf(file, row, 'email') ?? '', mask: AccountPermission.Member, groups: levels });
  });
  return { text: kept, invitees };
}

/**
 * The import's step when the person chose to invite: the invitation job (its plan and confirmation). The split when
 * invitations were sent; undefined when the new people stay in the file to be created (there are none, the portal
 * refused invitations, or the confirmation was declined).
 */
export async function inviteInsteadStep(
  ui: Ui,
  deps: InviteDeps,
  account: AccountRef,
  converted: { readonly text: string; readonly existing: readonly string[] },
  groups: readonly PortalGroup[],
): Promise<Split | undefined> {
  const split = splitNewPeople(converted.text, converted.existing, groups);
  if (split.invitees.length === 0) return undefined;
  const names = new Map(groups.map((g) => [String(g.id), g.friendlyName || g.name]));
  const sent = await inviteJob(ui, deps, account, split.invitees, { origin: 'import', groupNames: names });
  return sent ? split : undefined;
}

/** The import's last word when the new people were invited instead. */
export function invitedSummary(file: string, split: Split): string {
  return vscode.l10n.t(
    '{0} new people were invited instead (see the report); {1} keeps the members already there. Next: Plan Changes….',
    count(split.invitees.length),
    plain(file),
  );
}
