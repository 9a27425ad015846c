/**
 * Where Re-create Member from Snapshot… re-creates: the organisation the command was run on (a row of the Explorer
 * or the Members view), else the snapshot's organisation on the portal chosen. A snapshot names the portal and the
 * organisation it was taken on; when the target is another one, or the snapshot does not say (an older snapshot),
 * the user is asked plainly before a plan is made.
 */
import * as vscode from 'vscode';
import { plain } from '../../../shared/plainText';
import { accountOf, type AccountRef } from '../../../shared/refs';
import { portalFor } from '../../../targets/resolve';
import type { Run } from '../../../ui/commands';
import { answered } from '../../../ui/ui';
import type { ApplyDeps } from './applyRun';
import type { MemberSnapshot } from './core/model';
import { snapshotMismatch, type SnapshotMismatch } from '../../../engine/members/snapshot';

function mismatchWords(snapshot: MemberSnapshot, m: SnapshotMismatch, account: AccountRef, to: string): string {
  const lines: string[] = [];
  if (m.portal)
    lines.push(
      m.portal.from === undefined
        ? vscode.l10n.t('The snapshot does not say which portal it was taken on (it is from an older version).')
        : vscode.l10n.t('It was taken on {0}; the target is {1}.', plain(m.portal.from), plain(to)),
    );
  if (m.account)
    lines.push(
      vscode.l10n.t(
        'It was taken in organisation {0}; the target is {1} (organisation {2}).',
        m.account.from,
        plain(account.label),
        m.account.to,
      ),
    );
  lines.push(
    vscode.l10n.t('Groups are matched by their unique name in the target organisation; others are left out.'),
    vscode.l10n.t('Re-create {0} there anyway?', plain(snapshot.username)),
  );
  return lines.join('\n');
}

/** The organisation to re-create in; asks when it is not where the snapshot was taken. */
export async function recreateTarget(run: Run, deps: ApplyDeps, snapshot: MemberSnapshot): Promise<AccountRef> {
  const preferred = accountOf(run.target);
  const portalId = preferred?.portalId ?? (await portalFor(run, deps.registry)).portalId;
  const accountId = preferred?.accountId ?? snapshot.accountId;
  const account: AccountRef = preferred ?? {
    kind: 'account',
    portalId,
    accountId,
    label: deps.store.labelOf(portalId, accountId) ?? vscode.l10n.t('organisation {0}', accountId),
  };
  const baseUrl = deps.registry.get(portalId)?.entry.baseUrl ?? '';
  const mismatch = snapshotMismatch(snapshot, { baseUrl, accountId });
  if (mismatch) {
    const yes = await run.ui.confirm({
      id: 'plan.recreate.elsewhere',
      message: vscode.l10n.t('This snapshot of {0} is from another place than the target.', plain(snapshot.username)),
      detail: mismatchWords(snapshot, mismatch, account, new URL(baseUrl).origin),
      action: vscode.l10n.t('Re-create There'),
    });
    answered(yes ? true : undefined);
  }
  return account;
}
