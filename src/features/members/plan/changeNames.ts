/**
 * Changes named in the user's words, from what they did and where they came from: "Onboard 7 from
 * starters-2027Q1.xlsx", "Offboard 3: disable, remove from 9 group places", "Changes to 3 members from leavers.csv";
 * what a confirmation says a plan changes ("Disable 3, remove from 9 group places"); and how far an undo has gone
 * ("undone for 1 of 3"). Every count is plural-correct: never "1 members".
 *
 * Pure (the unit tier loads it): @vscode/l10n, the same bundle as vscode.l10n.
 */
import * as l10n from '@vscode/l10n';
import { count } from '../../../shared/format';
import { groupChangeKind, type PlanChange, type PlanNaming } from './core/model';

/** "1 member", "27 members". */
export function membersWord(n: number): string {
  return n === 1 ? l10n.t('1 member') : l10n.t('{0} members', count(n));
}

/** "1 group place", "9 group places": a member's place in one group. */
function groupPlaces(n: number): string {
  return n === 1 ? l10n.t('1 group place') : l10n.t('{0} group places', count(n));
}

/** Distinct members the changes touch. */
export function memberCount(changes: readonly PlanChange[]): number {
  return new Set(changes.map((c) => c.username.toLowerCase())).size;
}

interface Tally {
  create: number;
  restore: number;
  disable: number;
  enable: number;
  lock: number;
  unlock: number;
  tags: number;
  profile: number;
  permission: number;
  twoFactor: number;
  groupAdd: number;
  groupChange: number;
  groupRemove: number;
  remove: number;
}

function tally(changes: readonly PlanChange[]): Tally {
  const t: Tally = {
    create: 0,
    restore: 0,
    disable: 0,
    enable: 0,
    lock: 0,
    unlock: 0,
    tags: 0,
    profile: 0,
    permission: 0,
    twoFactor: 0,
    groupAdd: 0,
    groupChange: 0,
    groupRemove: 0,
    remove: 0,
  };
  const profiles = new Set<string>();
  for (const c of changes) {
    switch (c.kind) {
      case 'create':
        t.create++;
        break;
      case 'restore':
        t.restore++;
        break;
      case 'absent':
        if (c.action === 'disable') t.disable++;
        else t.remove++;
        break;
      case 'uncreate':
        t.remove++;
        break;
      case 'group': {
        const kind = groupChangeKind(c);
        if (kind === 'added') t.groupAdd++;
        else if (kind === 'removed') t.groupRemove++;
        else t.groupChange++;
        break;
      }
      case 'field':
        if (c.field === 'enabled') t[c.after ? 'enable' : 'disable']++;
        else if (c.field === 'locked') t[c.after ? 'lock' : 'unlock']++;
        else if (c.field === 'tags') t.tags++;
        else if (c.field === 'accountPermission') t.permission++;
        else if (c.field === 'twoFactor') t.twoFactor++;
        else profiles.add(c.username.toLowerCase());
        break;
    }
  }
  t.profile = profiles.size;
  return t;
}

/** What the changes do, as phrases in the order a person reads a change: "disable 3", "remove from 9 group places". */
function phrases(t: Tally, tag?: string): string[] {
  const out: string[] = [];
  if (t.create) out.push(l10n.t('create {0}', count(t.create)));
  if (t.restore) out.push(l10n.t('re-create {0}', count(t.restore)));
  if (t.disable) out.push(l10n.t('disable {0}', count(t.disable)));
  if (t.enable) out.push(l10n.t('enable {0}', count(t.enable)));
  if (t.lock) out.push(l10n.t('lock {0}', count(t.lock)));
  if (t.unlock) out.push(l10n.t('unlock {0}', count(t.unlock)));
  if (t.tags)
    out.push(tag ? l10n.t('tag {0} "{1}"', count(t.tags), tag) : l10n.t('change the tags of {0}', count(t.tags)));
  if (t.profile) out.push(l10n.t('change the profile of {0}', count(t.profile)));
  if (t.permission) out.push(l10n.t('change the organisation permission of {0}', count(t.permission)));
  if (t.twoFactor) out.push(l10n.t('turn two-factor off for {0}', count(t.twoFactor)));
  if (t.groupAdd) out.push(l10n.t('add to {0}', groupPlaces(t.groupAdd)));
  if (t.groupChange) out.push(l10n.t('change the level in {0}', groupPlaces(t.groupChange)));
  if (t.groupRemove) out.push(l10n.t('remove from {0}', groupPlaces(t.groupRemove)));
  if (t.remove) out.push(l10n.t('remove {0} from the organisation', count(t.remove)));
  return out;
}

const capitalised = (s: string): string => s.charAt(0).toLocaleUpperCase() + s.slice(1);

/** What a plan's chosen changes do, for its confirmation: "Disable 3, remove from 9 group places." Empty for none. */
export function whatChanges(changes: readonly PlanChange[], tag?: string): string {
  const parts = phrases(tally(changes), tag);
  return parts.length ? l10n.t('{0}.', capitalised(parts.join(', '))) : '';
}

/**
 * An offboarding's name: "Offboard 3: disable, remove from 9 group places". The verbs name what was done to every
 * one of them, so only group places are counted.
 */
export function offboardTitle(changes: readonly PlanChange[], tag?: string): string {
  const t = tally(changes);
  const n = memberCount(changes);
  const what: string[] = [];
  if (t.remove) what.push(l10n.t('remove from the organisation'));
  if (t.disable) what.push(l10n.t('disable'));
  if (t.groupRemove) what.push(l10n.t('remove from {0}', groupPlaces(t.groupRemove)));
  if (t.lock) what.push(l10n.t('lock'));
  if (t.tags) what.push(tag ? l10n.t('tag "{0}"', tag) : l10n.t('tag'));
  return what.length ? l10n.t('Offboard {0}: {1}', count(n), what.join(', ')) : l10n.t('Offboard {0}', count(n));
}

/** A plan from a file: "Onboard 7 from starters-2027Q1.xlsx" when it only adds people, else "Changes to 3 members from leavers.csv". */
export function fileTitle(changes: readonly PlanChange[], source: string): string {
  const n = memberCount(changes);
  if (n > 0 && changes.every((c) => c.kind === 'create')) return l10n.t('Onboard {0} from {1}', count(n), source);
  return n === 1
    ? l10n.t('Changes to 1 member from {0}', source)
    : l10n.t('Changes to {0} members from {1}', count(n), source);
}

/** Remove from All Groups: "Remove 3 members from all their groups (9 group places)". */
export function allGroupsTitle(changes: readonly PlanChange[]): string {
  const n = memberCount(changes);
  const places = groupPlaces(changes.length);
  return n === 1
    ? l10n.t('Remove 1 member from all their groups ({0})', places)
    : l10n.t('Remove {0} members from all their groups ({1})', count(n), places);
}

/** The name a plan's change gets once applied with `chosen`, from its naming. */
export function planTitle(naming: PlanNaming, chosen: readonly PlanChange[]): string {
  switch (naming.kind) {
    case 'offboard':
      return offboardTitle(chosen, naming.tag);
    case 'allGroups':
      return allGroupsTitle(chosen);
    case 'file':
      return fileTitle(chosen, naming.source);
  }
}

/** A change undone for some of its members: "undone for 1 of 3"; for all of them, "undone". */
export function undoneWords(undone: number, of: number): string {
  return undone >= of ? l10n.t('undone') : l10n.t('undone for {0} of {1}', count(undone), count(of));
}

/** A change's members changed: "1 member changed", "3 members changed". */
export function changedWords(n: number): string {
  return n === 1 ? l10n.t('1 member changed') : l10n.t('{0} members changed', count(n));
}

/**
 * An undo's name, after the change it reverses (named already, with its time): all that is left of it, one member
 * of several ("for alice"), or some of them ("for 2 of 3 members").
 */
export function undoTitle(changeName: string, chosen: readonly string[], left: number): string {
  if (chosen.length >= left) return l10n.t('Undo {0}', changeName);
  if (chosen.length === 1) return l10n.t('Undo {0} for {1}', changeName, chosen[0] ?? '');
  return l10n.t('Undo {0} for {1} of {2}', changeName, count(chosen.length), membersWord(left));
}
