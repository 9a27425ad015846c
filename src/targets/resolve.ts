/**
 * What a command works on: the row it ran on, when that row names one; otherwise the user picks. A withheld answer
 * ends the command quietly (answered() throws Cancelled, which the command wrapper swallows).
 */
import * as vscode from 'vscode';
import type { PortalRegistry } from '../auth/portalRegistry';
import {
  accountOf,
  applicationOf,
  fileOf,
  groupOf,
  memberOf,
  refPortalId,
  type AccountRef,
  type ApplicationRef,
  type FileRef,
  type GroupRef,
  type MemberRef,
  type PortalRef,
} from '../shared/refs';
import type { Run } from '../ui/commands';
import { answered } from '../ui/ui';
import { pickApplication, pickDown, pickFile, pickMember, type Asking } from './pick';

/** The levels a command can work at, widest first. */
export type TargetLevel = 'portal' | 'account' | 'group';

/**
 * The portal, organisation or group a command works on, in one pass: what the row names is taken as it is, and only
 * the levels it leaves open are asked, widest first, each once. The row's portal is taken only while it is still
 * listed; an organisation or group the row names is taken as it stands.
 */
export function resolveTarget(
  run: Run,
  registry: PortalRegistry,
  level: 'portal',
  asking?: Partial<Asking>,
): Promise<PortalRef>;
export function resolveTarget(
  run: Run,
  registry: PortalRegistry,
  level: 'account',
  asking?: Partial<Asking>,
): Promise<AccountRef>;
export function resolveTarget(run: Run, registry: PortalRegistry, level: 'group'): Promise<GroupRef>;
export async function resolveTarget(
  run: Run,
  registry: PortalRegistry,
  level: TargetLevel,
  asking: Partial<Asking> = {},
): Promise<PortalRef | AccountRef | GroupRef> {
  const given = run.target;
  const portalId = given ? refPortalId(given) : undefined;
  // The row's portal, only while it is still listed.
  const listed = portalId ? registry.get(portalId)?.entry : undefined;
  const known =
    (level === 'group' ? (groupOf(given) ?? accountOf(given)) : level === 'account' ? accountOf(given) : undefined) ??
    (listed ? { kind: 'portal' as const, portalId: listed.id, label: listed.label } : undefined);
  const picked = await pickDown(run.ui, registry, level, known, {
    placeHolder: asking.placeHolder ?? vscode.l10n.t('Which portal?'),
    ...(asking.title !== undefined ? { title: asking.title } : {}),
  });
  return answered(picked);
}

/** The signed-in portal the row lies in, else one the user picks. */
export function portalFor(run: Run, registry: PortalRegistry, placeHolder?: string): Promise<PortalRef> {
  return resolveTarget(run, registry, 'portal', placeHolder !== undefined ? { placeHolder } : {});
}

/** The row's organisation, else one asked for (under `title`, the command's, where given). */
export function accountFor(run: Run, registry: PortalRegistry, title?: string): Promise<AccountRef> {
  return resolveTarget(run, registry, 'account', title !== undefined ? { title } : {});
}

export function groupFor(run: Run, registry: PortalRegistry): Promise<GroupRef> {
  return resolveTarget(run, registry, 'group');
}

export async function fileFor(run: Run, registry: PortalRegistry, filesOnly: boolean): Promise<FileRef> {
  return fileOf(run.target) ?? answered(await pickFile(run.ui, registry, await groupFor(run, registry), filesOnly));
}

/** The row's member; else one of `preferred` (the account the Members view shows) or of an account the user picks. */
export async function memberFor(run: Run, registry: PortalRegistry, preferred?: AccountRef): Promise<MemberRef> {
  const member = memberOf(run.target);
  if (member) return member;
  const account = accountOf(run.target) ?? preferred ?? (await accountFor(run, registry));
  return answered(await pickMember(run.ui, registry, account));
}

export async function applicationFor(run: Run, registry: PortalRegistry): Promise<ApplicationRef> {
  return applicationOf(run.target) ?? answered(await pickApplication(run.ui, registry, await portalFor(run, registry)));
}
