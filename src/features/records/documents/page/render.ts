/**
 * The read-only documents behind `portal:` URIs: a file record, a group, an account, an application, as
 * Markdown a person reads as plain text too. No VS Code here.
 *
 * Every server string goes through `text()`: the punctuation that opens Markdown or HTML mid-line is
 * backslash-escaped, so a name like `<img src=x onerror=…>` stays text even in the Markdown preview.
 */
import * as l10n from '@vscode/l10n';
import type { Account, CustomNames, FileRecord, Group, Subscription } from '../../../../api/index';
import { count, filesWord, fullDate, given, humanSize, onOff, yesNo } from '../../../../shared/format';
import { line, noticeLines, text } from '../../../../shared/markdown';
import { contentRightsWords, sharingWords } from '../../../../shared/contentRights';
import { accountPermissionWords } from '../../../../shared/permissions';
import type { RecordSection } from './record.protocol';

/** "12 of 100", or the count alone when the portal reported no limit (null never means "unlimited"). */
const usage = (used: string, allowed: string | null): string =>
  allowed === null ? l10n.t('{0} used, limit not reported', used) : l10n.t('{0} of {1}', used, allowed);

function lockerName(locker: unknown): string | undefined {
  if (typeof locker !== 'object' || locker === null) return undefined;
  const o = locker as Record<string, unknown>;
  const name = typeof o.name === 'string' ? o.name : typeof o.username === 'string' ? o.username : undefined;
  return name || undefined;
}

export interface RecordContext {
  readonly portalLabel: string;
  readonly accountId: number;
  readonly groupId: number;
  /** Custom component names of the account, when known. */
  readonly customNames?: CustomNames | undefined;
  /** The group's name as the view showed it, for a record that does not carry its group. */
  readonly groupLabel?: string | undefined;
  /** The folders above the record as the view walked them, for a record that does not carry its path. */
  readonly folders?: ReadonlyArray<{ readonly name: string }> | undefined;
  /**
   * True when the record comes from a folder listing (or the view's row), which leaves out the uploader, versions,
   * description and tags: those are then "not listed" rather than empty.
   */
  readonly lean?: boolean;
  /** What the portal did not answer, shown above the record. */
  readonly notices?: readonly string[];
}

/**
 * "Engineering / src / utils / format.ts": the group's name and every folder's name. The record's own path when it
 * names every folder, else the folders the view walked; the group from the record, else the view's name for it.
 */
export function recordPath(f: FileRecord, ctx: RecordContext): string[] {
  const group = f.group?.friendlyName || f.group?.name || ctx.groupLabel || l10n.t('group {0}', ctx.groupId);
  const own = f.path.map((p) => p.name);
  const folders = own.length > 0 && own.every(Boolean) ? own : (ctx.folders?.map((p) => p.name) ?? own.filter(Boolean));
  return [group, ...folders, f.friendlyName || f.name];
}

/** Keeps server text as text where it is shown: `text()` for Markdown; a webview page sets it as text already. */
type Escape = (value: string | null | undefined) => string;

const asIs: Escape = (value) => (value === null || value === undefined || value === '' ? '—' : value);

function lockText(f: FileRecord, esc: Escape): string {
  if (!f.locked) return l10n.t('not locked');
  const by = lockerName(f.locker);
  if (by && f.dateLocked) return l10n.t('locked by {0} since {1}', esc(by), fullDate(f.dateLocked));
  if (by) return l10n.t('locked by {0}', esc(by));
  return f.dateLocked ? l10n.t('locked since {0}', fullDate(f.dateLocked)) : l10n.t('locked');
}

/** The name a person knows the record by. */
export const recordTitle = (f: FileRecord): string => f.friendlyName || f.name;

/** What a record shows, in sections: the same facts for the Markdown document and the record page. */
export function recordSections(f: FileRecord, ctx: RecordContext, esc: Escape = asIs): RecordSection[] {
  const notListed = ctx.lean ? l10n.t('not in the listing') : undefined;
  const file = <T>(rows: T[]): T[] => (f.isFolder ? [] : rows);
  return [
    {
      title: l10n.t('Record'),
      rows: [
        [l10n.t('Name'), esc(f.name)],
        [l10n.t('Path'), recordPath(f, ctx).map(esc).join(' / ')],
        [l10n.t('Type'), f.isFolder ? l10n.t('folder') : esc(f.contentType)],
        ...file([[l10n.t('Size'), humanSize(f.size)] as const]),
        [l10n.t('Uploaded by'), notListed ?? esc(f.uploaded?.name || f.uploaded?.user?.name || null)],
        ...file([[l10n.t('Versions'), notListed ?? given(f.versions, String)] as const]),
        [l10n.t('Description'), notListed ?? esc(f.description)],
        [l10n.t('Tags'), notListed ?? (f.tags.length ? f.tags.map((t) => esc(t)).join(', ') : l10n.t('none'))],
      ],
    },
    {
      title: l10n.t('Sharing and access'),
      rows: [
        [l10n.t('Shared with'), sharingWords(f.sharing, esc)],
        [l10n.t('Member permission'), contentRightsWords(f.memberPermission)],
        [l10n.t('Hidden'), yesNo(f.hidden)],
        [l10n.t('Watermark'), given(f.watermark, onOff)],
        [l10n.t('Available'), given(f.available, yesNo)],
        [l10n.t('Lock'), lockText(f, esc)],
      ],
    },
    { title: l10n.t('Dates'), rows: [[l10n.t('Last modified'), fullDate(f.lastModified)]] },
  ];
}

/** The ids of a record, which a person rarely needs: kept apart, at the end. */
export function recordIds(f: FileRecord, ctx: RecordContext): RecordSection {
  return {
    title: l10n.t('Identifiers'),
    rows: [
      [l10n.t('File record id'), String(f.id)],
      [l10n.t('Group id'), String(ctx.groupId)],
      [l10n.t('Organisation id'), String(ctx.accountId)],
    ],
  };
}

/** What a record is, in a sentence: "File record on Demo portal." */
export function recordKind(f: FileRecord, ctx: RecordContext, esc: Escape = asIs): string {
  const portal = esc(ctx.portalLabel);
  return f.isFolder
    ? l10n.t('Folder record on {0}.', portal)
    : l10n.t('{0} record on {1}.', filesWord(ctx.customNames).one, portal);
}

/** The top of every document: its title, what the portal did not answer, and a sentence about what it is. */
function heading(title: string, notices: readonly string[] | undefined, intro: string): string[] {
  return [`# ${text(title)}`, '', ...noticeLines(notices), intro, ''];
}

export function renderFileRecord(f: FileRecord, ctx: RecordContext): string {
  return [
    ...heading(
      recordTitle(f),
      ctx.notices,
      l10n.t(
        "{0} This document is read-only; it shows the portal's data when it was opened.",
        recordKind(f, ctx, text),
      ),
    ),
    ...[...recordSections(f, ctx, text), recordIds(f, ctx)].flatMap((s) => [
      `## ${s.title}`,
      '',
      ...s.rows.map(([label, value]) => line(label, value)),
      '',
    ]),
  ].join('\n');
}

export function renderGroup(
  g: Group,
  ctx: { portalLabel: string; accountId: number; customNames?: CustomNames | undefined; notices?: readonly string[] },
): string {
  const words = filesWord(ctx.customNames);
  const components = g.components.map((c) => c.name).filter(Boolean);
  return [
    ...heading(g.friendlyName || g.name, ctx.notices, l10n.t('Group on {0}. Read-only.', text(ctx.portalLabel))),
    line(l10n.t('Name'), text(g.name)),
    line(l10n.t('Friendly name'), text(g.friendlyName)),
    line(l10n.t('Members'), count(g.members)),
    line(l10n.t('Storage used'), humanSize(g.storageConsumed)),
    line(l10n.t('Components'), components.length ? components.map(text).join(', ') : l10n.t('none')),
    ...(words.own ? [line(l10n.t('Files are called'), text(words.many))] : []),
    line(l10n.t('Chat'), onOff(!g.disableChat)),
    line(l10n.t('Comments'), onOff(!g.disableComments)),
    line(l10n.t('Member details hidden'), yesNo(g.hideMemberDetails)),
    line(l10n.t('Watermark'), onOff(g.watermarkConfiguration?.enableWatermark === true)),
    line(l10n.t('Created by'), text(g.user?.name ?? null)),
    line(l10n.t('Created'), fullDate(g.dateCreated)),
    line(l10n.t('Last modified'), fullDate(g.lastModified)),
    line(l10n.t('Group id'), String(g.id)),
    line(l10n.t('Organisation id'), String(ctx.accountId)),
    '',
  ].join('\n');
}

function subscriptionLines(sub: Subscription | { forbidden: true } | undefined): string[] {
  if (!sub) return [l10n.t('Not shown: the portal did not answer the subscription read.')];
  if ('forbidden' in sub) return [l10n.t('Subscription details need a Super administrator of this organisation.')];
  const p = sub.accountPackage;
  const paused = p.datePausedAt ? l10n.t('yes (since {0})', fullDate(p.datePausedAt)) : l10n.t('yes');
  return [
    line(l10n.t('Plan'), `${text(sub.plan)} (${text(p.code)})`),
    line(l10n.t('Trial'), p.trialExpires !== null ? l10n.t('until {0}', fullDate(p.trialExpires)) : l10n.t('no')),
    line(l10n.t('Paused'), p.paused ? paused : l10n.t('no')),
    line(l10n.t('Suspended'), yesNo(p.suspended)),
    line(l10n.t('Storage'), usage(humanSize(sub.storageUsed), p.storage !== null ? humanSize(p.storage) : null)),
    line(l10n.t('Members'), usage(count(sub.membersUsed), p.members !== null ? count(p.members) : null)),
    line(l10n.t('E-mails today'), usage(count(sub.emailsUsed), p.emailQuota !== null ? count(p.emailQuota) : null)),
  ];
}

export function renderAccount(
  a: Account,
  sub: Subscription | { forbidden: true } | undefined,
  ctx: { portalLabel: string; permission?: number | undefined; notices?: readonly string[] },
): string {
  const twoFactor = a.twoFactorEnforce
    ? l10n.t('enforced ({0})', a.twoFactorModes.map(text).join(', '))
    : l10n.t('optional');
  return [
    ...heading(a.friendlyName || a.name, ctx.notices, l10n.t('Organisation on {0}. Read-only.', text(ctx.portalLabel))),
    line(l10n.t('Name'), text(a.name)),
    line(l10n.t('Enabled'), yesNo(a.enabled)),
    line(l10n.t('Domain'), text(a.domain)),
    line(l10n.t('Locale'), text(a.locale)),
    line(l10n.t('Two-factor authentication'), twoFactor),
    ...(ctx.permission !== undefined ? [line(l10n.t('Your permission'), accountPermissionWords(ctx.permission))] : []),
    line(l10n.t('Created'), fullDate(a.dateCreated)),
    line(l10n.t('Organisation id'), String(a.id)),
    '',
    `## ${l10n.t('Subscription')}`,
    '',
    ...subscriptionLines(sub),
    '',
  ].join('\n');
}
