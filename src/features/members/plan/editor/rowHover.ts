/**
 * A hover on a row of a members file: that member as the portal held them at the last read (a plan), or that the
 * row is a new member. Nothing is asked of the portal per hover; before any read the hover says nothing.
 */
import * as vscode from 'vscode';
import { accountPermissionWords } from '../../../../shared/permissions';
import { fullDate, yesNo } from '../../../../shared/format';
import { plain } from '../../../../shared/plainText';
import { groupWord, usernameOf } from '../core/file/membersFile';
import { elevationsOf } from '../core/elevation';
import { allChanges, type FilePlan, type PortalMember, type PortalState } from '../core/model';
import { changeText, elevationsText } from '../planWords';
import { problemMessage } from './problemText';
import { LIVE_CHECK_LIMIT, sizeOf } from './diagnostics';
import { isMembersDocument, parseDocumentInSlices } from './membersDocument';
import type { PlanStore } from '../planStore';

export class RowHover implements vscode.HoverProvider {
  constructor(private readonly store: PlanStore) {}

  async provideHover(doc: vscode.TextDocument, position: vscode.Position): Promise<vscode.Hover | undefined> {
    const known = this.store.stateOf(doc.uri);
    if (!known || !isMembersDocument(doc) || sizeOf(doc) > LIVE_CHECK_LIMIT) return undefined;
    // The live checks' parse of this version, or one in slices: never a parse that holds the editor.
    const file = await parseDocumentInSlices(doc);
    // The row whose lines hold the position: the last row starting at or before it.
    const row = [...file.rows].reverse().find((r) => r.line <= position.line);
    const username = row ? usernameOf(file, row) : '';
    if (!row || !username || position.line === 0) return undefined;
    const member = known.state.members.get(username.toLowerCase());
    const md = hoverText(username, member, known.state, known.account.label);
    const shown = this.store.plan;
    if (shown?.file?.toString() === doc.uri.toString()) appendPlanned(md, shown.plan, row.row, shown.stale);
    return new vscode.Hover(md);
  }
}

/** What the plan on show does with the row: each change in full, what it grants, or why it is not planned. */
function appendPlanned(md: vscode.MarkdownString, plan: FilePlan, row: number, stale: boolean): void {
  const names = new Map(plan.groups.map((g) => [g.id, g.friendlyName || g.name]));
  const groupName = (id: number) => names.get(id) ?? `#${id}`;
  const changes = allChanges(plan).filter((c) => c.row === row);
  const skipped = plan.skipped?.find((s) => s.row === row);
  md.appendMarkdown('\n\n---\n\n');
  if (stale) md.appendText(vscode.l10n.t('The plan is out of date: the file changed after it.') + '\n\n');
  if (skipped) {
    md.appendText(vscode.l10n.t('The plan leaves this row out:'));
    for (const p of skipped.problems) md.appendText(`\n- ${problemMessage(p)}`);
    return;
  }
  if (changes.length === 0) {
    md.appendText(vscode.l10n.t('The plan changes nothing for this row.'));
    return;
  }
  md.appendText(vscode.l10n.t('The plan for this row:'));
  for (const c of changes) {
    const grants = elevationsOf(c, groupName);
    md.appendText(`\n- ${changeText(c, groupName)}`);
    if (grants.length) md.appendText(` (${vscode.l10n.t('ELEVATION, grants {0}', elevationsText(grants))})`);
  }
}

/** Markdown built with appendText only: the portal's and the file's text can never become a link or an image. */
export function hoverText(
  username: string,
  member: PortalMember | undefined,
  state: PortalState,
  accountLabel: string,
): vscode.MarkdownString {
  const md = new vscode.MarkdownString();
  const line = (label: string, value: string) => {
    md.appendMarkdown('**');
    md.appendText(label);
    md.appendMarkdown('** ');
    md.appendText(plain(value));
    md.appendMarkdown('  \n');
  };
  if (!member) {
    md.appendText(
      vscode.l10n.t(
        '{0} is not a member of {1} (read {2}): this row creates them.',
        plain(username),
        plain(accountLabel),
        fullDate(state.readAt),
      ),
    );
    return md;
  }
  md.appendText(vscode.l10n.t('On the portal, read {0}:', fullDate(state.readAt)));
  md.appendMarkdown('\n\n');
  line(vscode.l10n.t('Name:'), member.name);
  line(vscode.l10n.t('E-mail:'), member.email);
  if (member.jobTitle) line(vscode.l10n.t('Job title:'), member.jobTitle);
  line(vscode.l10n.t('Enabled:'), yesNo(member.enabled));
  line(vscode.l10n.t('Locked:'), yesNo(member.locked));
  line(vscode.l10n.t('Organisation permission:'), accountPermissionWords(member.accountPermission));
  line(vscode.l10n.t('Tags:'), member.tags.join(', '));
  if (member.groups) {
    const names = new Map(state.groups.map((g) => [g.id, g.name]));
    const groups = [...member.groups]
      .filter(([, level]) => level !== 0)
      .map(([id, level]) => `${names.get(id) ?? `#${id}`}: ${groupWord(level)}`);
    line(vscode.l10n.t('Groups:'), groups.join(', '));
  }
  if (member.lastModified !== null) line(vscode.l10n.t('Last changed:'), fullDate(member.lastModified));
  return md;
}
