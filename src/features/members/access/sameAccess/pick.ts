/**
 * Give Same Access's question "whose access?": a search over the organisation's members whose rows name the job
 * title (how an admin finds "the analyst" without their name) and the groups, as far as the access matrix's stored
 * reads know them (no request per row: a member's groups cost one read each).
 */
import * as vscode from 'vscode';
import type { Member, PortalClient } from '../../../../api/index';
import type { AccountRef, MemberRef } from '../../../../shared/refs';
import type { PickItem, Ui } from '../../../../ui/ui';
import type { AccessMatrix } from '../store/accessMatrix';
import { ROW } from '../../../../shared/accessRow';

const PICK_PAGE = 100;
/** Group names a row's detail lists before "and N more". */
const GROUPS_SHOWN = 4;

/** The member's groups by friendly name as the stored reads hold them; undefined when their groups were never read. */
export function storedGroups(matrix: AccessMatrix, username: string): string[] | undefined {
  const row = matrix.row(username);
  if (!row || row[ROW.readAt] === 0) return undefined;
  return Object.keys(matrix.groupsOf(row))
    .map((name) => matrix.label(matrix.columnOf(name) ?? -1) || name)
    .sort((a, b) => a.localeCompare(b));
}

/** "Groups: Engineering, Finance and 3 more", or what is known of them. */
export function groupsWords(groups: readonly string[] | undefined): string {
  if (groups === undefined) return vscode.l10n.t('Groups not read yet');
  if (groups.length === 0) return vscode.l10n.t('In no group');
  const shown = groups.slice(0, GROUPS_SHOWN).join(', ');
  const more = groups.length - GROUPS_SHOWN;
  if (more <= 0) return vscode.l10n.t('Groups: {0}', shown);
  return more === 1
    ? vscode.l10n.t('Groups: {0} and 1 more', shown)
    : vscode.l10n.t('Groups: {0} and {1} more', shown, more);
}

export function pickAccessSource(
  ui: Ui,
  client: Pick<PortalClient, 'v3'>,
  account: AccountRef,
  matrix: AccessMatrix,
): Promise<MemberRef | undefined> {
  const item = (m: Member): PickItem<MemberRef> => {
    const name = m.user.name || m.user.username;
    return {
      label: name,
      description: [m.user.jobTitle ?? '', m.user.username].filter(Boolean).join(' · '),
      detail: groupsWords(storedGroups(matrix, m.user.username)),
      value: { kind: 'member', account, username: m.user.username, name },
    };
  };
  // The portal searches names, usernames and e-mails but not job titles: the first page, read once, is searched
  // here for the title typed.
  let first: Promise<readonly Member[]> | undefined;
  const page = (search: string, signal: AbortSignal): Promise<readonly Member[]> =>
    client.v3.members
      .page(account.accountId, { page: 1, size: PICK_PAGE, ...(search ? { name: search } : {}) }, { signal })
      .then((p) => p.items);
  return ui.search(
    async function* members(search, signal) {
      first ??= page('', signal);
      const all = await first.catch((): readonly Member[] => {
        // Cancelled with the text it was asked for: asked again with the next one.
        first = undefined;
        return [];
      });
      const text = search.trim().toLowerCase();
      if (!text) {
        yield all.map(item);
        return;
      }
      const byTitle = all.filter((m) => (m.user.jobTitle ?? '').toLowerCase().includes(text));
      const byName = await page(search, signal);
      const seen = new Set(byName.map((m) => m.user.username));
      yield [...byName, ...byTitle.filter((m) => !seen.has(m.user.username))].map(item);
    },
    {
      id: 'pick.member',
      title: vscode.l10n.t('Copy access from… ({0})', account.label),
      placeHolder: vscode.l10n.t('Copy access from…'),
      matchOnDescription: true,
      matchOnDetail: true,
    },
  );
}
