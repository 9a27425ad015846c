/**
 * Turns the assignments form's values into the one request that expresses the change. Pure, so the
 * unit tier tests it without VS Code.
 *
 * Why v3 PATCH and never v2 POST here: PATCH /v3/accounts/{account}/members/{username} names
 * exactly the fields it changes: groups by id (assignGroupsRights, assignGroupsAdmin, removeGroups), the
 * account permission, tags, enabled, lock, the new-groups permission and assignmentNotification. Every field
 * of this form is among them. POST /v2/.../members/{username} instead replaces the whole member,
 * with groups keyed by *name*: it would overwrite whatever someone else changed since the form loaded, and
 * a group renamed meanwhile would be lost. So this form sends only the diff, and only through v3.
 */
import * as l10n from '@vscode/l10n';
import type { MemberUpdate } from '../../../../api/models/member';
import type { MemberEdit } from '../../../../engine/members/edits';
import type { MemberBefore, MemberTarget } from '../../../../engine/members/model';
import { groupLevelPatch, levelsOfPatch, type GroupLevel } from '../../../../shared/groupLevel';
import { UNKNOWN_LEVEL, type AssignmentLevel, type AssignmentsValues } from './assignments.protocol';

interface AssignmentsPlan {
  /** The PATCH body; undefined when nothing changed (no request is sent). */
  update: MemberUpdate | undefined;
  /** What changed, in words, for the success message. */
  summary: string[];
}

/**
 * Checks that the values belong to the form's context: the same account and member, and only groups of
 * that account (each at most once). Returns a reason to drop the message, or undefined when it is fine.
 */
export function foreignReference(
  state: { accountId: number; username: string; groups: ReadonlyArray<{ id: number }> },
  values: AssignmentsValues,
): string | undefined {
  if (values.accountId !== state.accountId) return 'it names another account';
  if (values.username !== state.username) return 'it names another member';
  const known = new Set(state.groups.map((g) => g.id));
  const seen = new Set<number>();
  for (const g of values.groups) {
    if (!known.has(g.id)) return 'it names a group that is not in this account';
    if (seen.has(g.id)) return 'it names a group twice';
    seen.add(g.id);
  }
  return undefined;
}

/** Tags as the portal keeps them: trimmed, no blanks, no duplicates, order kept. */
export function normaliseTags(tags: readonly string[]): string[] {
  const out: string[] = [];
  for (const t of tags.map((x) => x.trim())) if (t && !out.includes(t)) out.push(t);
  return out;
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x) => b.includes(x));
}

export function planAssignments(baseline: AssignmentsValues, values: AssignmentsValues): AssignmentsPlan {
  const update: MemberUpdate = {};
  const summary: string[] = [];
  const before = new Map<number, AssignmentLevel>(baseline.groups.map((g) => [g.id, g.permission]));

  // A group whose level is unknown is sent only when the user picked a level for it; "unknown" is never sent.
  const changes = values.groups
    .map((g) => ({ id: g.id, from: before.get(g.id) ?? 0, to: g.permission }))
    .filter(
      (c): c is { id: number; from: AssignmentLevel; to: GroupLevel } => c.from !== c.to && c.to !== UNKNOWN_LEVEL,
    );
  Object.assign(update, groupLevelPatch(changes.map((c) => [c.id, c.to] as const)));
  const groupChanges = changes.length;
  if (groupChanges > 0) {
    summary.push(groupChanges === 1 ? l10n.t('1 group assignment') : l10n.t('{0} group assignments', groupChanges));
    // The notification is about this save's group assignments, so it is sent only with them.
    update.assignmentNotification = values.notify;
  }

  if (values.accountPermission !== baseline.accountPermission) {
    update.permission = values.accountPermission;
    summary.push(l10n.t('organisation permission'));
  }
  const tags = normaliseTags(values.tags);
  if (!sameSet(tags, normaliseTags(baseline.tags))) {
    update.tags = tags;
    summary.push(l10n.t('tags'));
  }
  if (values.enabled !== baseline.enabled) {
    update.enabled = values.enabled;
    summary.push(values.enabled ? l10n.t('enabled') : l10n.t('disabled'));
  }
  if (values.locked !== baseline.locked) {
    update.lock = values.locked;
    summary.push(values.locked ? l10n.t('locked') : l10n.t('unlocked'));
  }
  if (values.assignToNewGroups !== baseline.assignToNewGroups) {
    // The PATCH splits the new-groups permission in two: administrator is a flag, the rest a rights
    // value (0 = not assigned to new groups). Send the flag only when administrator is gained or lost.
    const was = baseline.assignToNewGroups;
    const to = values.assignToNewGroups;
    if (to === 16) update.assignToNewGroupsAdmin = true;
    else {
      if (was === 16) update.assignToNewGroupsAdmin = false;
      update.assignToNewGroupsRights = to;
    }
    summary.push(l10n.t('permission in new groups'));
  }
  return { update: summary.length > 0 ? update : undefined, summary };
}

/**
 * The save as an engine edit: the PATCH exactly as planned, with the member's values before (the form's baseline)
 * and after, so an Undo puts them back. The notification flag and the new-groups permission are sent, not undone.
 */
export function assignmentsEdit(username: string, baseline: AssignmentsValues, update: MemberUpdate): MemberEdit {
  const groups: Record<string, GroupLevel> = {};
  for (const g of baseline.groups) if (g.permission !== UNKNOWN_LEVEL) groups[String(g.id)] = g.permission;
  const before: MemberBefore = {
    username,
    name: '',
    email: '',
    jobTitle: null,
    enabled: baseline.enabled,
    locked: baseline.locked,
    accountPermission: baseline.accountPermission,
    tags: baseline.tags,
    twoFactor: false,
    lastModified: null,
    groups,
  };
  const fields: MemberTarget['fields'] = {
    ...(update.enabled !== undefined ? { enabled: update.enabled } : {}),
    ...(update.lock !== undefined ? { locked: update.lock } : {}),
    ...(update.tags !== undefined ? { tags: update.tags } : {}),
    ...(update.permission !== undefined ? { accountPermission: update.permission } : {}),
  };
  const after: MemberTarget = { fields, groups: Object.fromEntries(levelsOfPatch(update)) };
  const action = update.enabled === false ? 'disable' : 'update';
  return { username, action, before, after, requests: [{ method: 'v3.update', body: update }] };
}
