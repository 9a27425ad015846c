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
import { pickAccount, pickApplication, pickFile, pickGroup, pickMember, pickSignedInPortal } from './pick';

/** The signed-in portal the row lies in, else one the user picks. */
export async function portalFor(
  run: Run,
  registry: PortalRegistry,
  placeHolder = vscode.l10n.t('Which portal?'),
): Promise<PortalRef> {
  const id = run.target ? refPortalId(run.target) : undefined;
  const entry = id ? registry.get(id)?.entry : undefined;
  if (entry) return { kind: 'portal', portalId: entry.id, label: entry.label };
  return answered(await pickSignedInPortal(run.ui, registry, placeHolder));
}

export async function accountFor(run: Run, registry: PortalRegistry): Promise<AccountRef> {
  return accountOf(run.target) ?? answered(await pickAccount(run.ui, registry, await portalFor(run, registry)));
}

export async function groupFor(run: Run, registry: PortalRegistry): Promise<GroupRef> {
  return groupOf(run.target) ?? answered(await pickGroup(run.ui, registry, await accountFor(run, registry)));
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
