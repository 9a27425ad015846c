/**
 * The read-only documents behind `portal:` URIs: a file record, a group, an account, an application, as
 * Markdown a person reads as plain text too. No VS Code here.
 *
 * Every server string goes through `text()`: the punctuation that opens Markdown or HTML mid-line is
 * backslash-escaped, so a name like `<img src=x onerror=…>` stays text even in the Markdown preview.
 */
import {
  accountPermissionLabel, contentPermissionLabel, type Account, type Application, type CustomNames, type FileRecord,
  type Group, type Subscription,
} from '../../api';
import { count, filesWord, fullDate, humanSize, relativeTime } from '../../shared/format';

/** Escapes Markdown and HTML punctuation in server text; newlines become spaces (one value, one line). */
export function text(value: string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '—';
  // Only what can open markup mid-line; dots and dashes stay readable ("README.md", not "README\.md").
  return value.replace(/[\r\n\t]+/g, ' ').replace(/[\\`*[\]<>|~&]|(?<!\w)_|_(?!\w)/g, (c) => `\\${c}`);
}

function line(label: string, value: string): string {
  return `- **${label}:** ${value}`;
}

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
}

export function renderFileRecord(f: FileRecord, ctx: RecordContext): string {
  const words = filesWord(ctx.customNames);
  const kind = f.isFolder ? 'Folder' : words.one;
  const groupName = f.group?.friendlyName || f.group?.name || `group ${ctx.groupId}`;
  const where = [groupName, ...f.path.map((p) => p.name).filter(Boolean), f.friendlyName || f.name];
  const lockedBy = lockerName(f.locker);
  const out = [
    `# ${text(f.friendlyName || f.name)}`,
    '',
    `${kind} record on ${text(ctx.portalLabel)}. This document is read-only; it shows the portal's data when it was opened.`,
    '',
    '## Record',
    '',
    line('Name', text(f.name)),
    line('Path', where.map(text).join(' / ')),
    line('Type', f.isFolder ? 'folder' : text(f.contentType)),
    ...(f.isFolder ? [] : [line('Size', `${humanSize(f.size)} (${count(f.size)} bytes)`)]),
    line('Uploaded by', text(f.uploaded?.name || f.uploaded?.user?.name || null)),
    ...(f.isFolder ? [] : [line('Versions', String(f.versions))]),
    line('Description', text(f.description)),
    line('Tags', f.tags.length ? f.tags.map((t) => text(t)).join(', ') : 'none'),
    '',
    '## Sharing and access',
    '',
    line('Sharing', text(f.sharing)),
    line('Member permission', f.memberPermission !== null ? contentPermissionLabel(f.memberPermission) : '—'),
    line('Hidden', f.hidden ? 'yes' : 'no'),
    line('Lock', f.locked ? `locked${lockedBy ? ` by ${text(lockedBy)}` : ''}${f.dateLocked ? ` since ${fullDate(f.dateLocked)}` : ''}` : 'not locked'),
    '',
    '## Dates',
    '',
    line('Last modified', fullDate(f.lastModified)),
    '',
    '## Identifiers',
    '',
    line('File record id', String(f.id)),
    line('Group id', String(ctx.groupId)),
    line('Account id', String(ctx.accountId)),
    '',
  ];
  return out.join('\n');
}

export function renderGroup(g: Group, ctx: { portalLabel: string; accountId: number; customNames?: CustomNames | undefined }): string {
  const words = filesWord(ctx.customNames);
  const components = g.components.map((c) => c.name).filter(Boolean);
  return [
    `# ${text(g.friendlyName || g.name)}`,
    '',
    `Group on ${text(ctx.portalLabel)}. Read-only.`,
    '',
    line('Name', text(g.name)),
    line('Friendly name', text(g.friendlyName)),
    line('Members', count(g.members)),
    line('Storage used', humanSize(g.storageConsumed)),
    line('Components', components.length ? components.map(text).join(', ') : 'none'),
    ...(words.many !== 'Files' ? [line('Files are called', text(words.many))] : []),
    line('Chat', g.disableChat ? 'off' : 'on'),
    line('Comments', g.disableComments ? 'off' : 'on'),
    line('Member details hidden', g.hideMemberDetails ? 'yes' : 'no'),
    line('Watermark', g.watermarkConfiguration?.enableWatermark ? 'on' : 'off'),
    line('Created by', text(g.user?.name ?? null)),
    line('Created', fullDate(g.dateCreated)),
    line('Last modified', fullDate(g.lastModified)),
    line('Group id', String(g.id)),
    line('Account id', String(ctx.accountId)),
    '',
  ].join('\n');
}

export function renderAccount(a: Account, sub: Subscription | { forbidden: true } | undefined, ctx: { portalLabel: string; permission?: number | undefined }): string {
  const out = [
    `# ${text(a.friendlyName || a.name)}`,
    '',
    `Organisation on ${text(ctx.portalLabel)}. Read-only.`,
    '',
    line('Name', text(a.name)),
    line('Enabled', a.enabled ? 'yes' : 'no'),
    line('Domain', text(a.domain)),
    line('Locale', text(a.locale)),
    line('Two-factor authentication', a.twoFactorEnforce ? `enforced (${a.twoFactorModes.map(text).join(', ')})` : 'optional'),
    ...(ctx.permission !== undefined ? [line('Your permission', accountPermissionLabel(ctx.permission))] : []),
    line('Created', fullDate(a.dateCreated)),
    line('Account id', String(a.id)),
    '',
    '## Subscription',
    '',
  ];
  if (!sub) out.push('Not loaded.');
  else if ('forbidden' in sub) out.push('Subscription details need administrator rights in this organisation.');
  else {
    const p = sub.accountPackage;
    out.push(
      line('Plan', `${text(sub.plan)} (${text(p.code)})`),
      line('Trial', p.trialExpires !== null ? `until ${fullDate(p.trialExpires)}` : 'no'),
      line('Paused', p.paused ? `yes${p.datePausedAt ? ` (since ${fullDate(p.datePausedAt)})` : ''}` : 'no'),
      line('Suspended', p.suspended ? 'yes' : 'no'),
      line('Storage', `${humanSize(sub.storageUsed)} of ${p.storage !== null ? humanSize(p.storage) : 'unlimited'}`),
      line('Members', `${count(sub.membersUsed)} of ${p.members !== null ? count(p.members) : 'unlimited'}`),
      line('E-mails today', `${count(sub.emailsUsed)} of ${p.emailQuota !== null ? count(p.emailQuota) : 'unlimited'}`),
    );
  }
  out.push('');
  return out.join('\n');
}

export function renderApplication(app: Application, ctx: { portalLabel: string; current: boolean; now?: number }): string {
  return [
    `# ${text(app.name || app.clientId)}`,
    '',
    `Application on ${text(ctx.portalLabel)}. Read-only. The client secret is never shown here: the portal returns it only when it is created or rotated.`,
    ...(ctx.current ? ['', '**This VS Code window signs in with this application.** Deleting it or rotating its secret from elsewhere signs this window out.'] : []),
    '',
    line('Client id', text(app.clientId)),
    line('Description', text(app.description)),
    line('Platform', text(app.platform)),
    line('Device', `${text(app.deviceType)}${app.deviceModel ? `, ${text(app.deviceModel)}` : ''}${app.deviceOs ? `, ${text(app.deviceOs)}` : ''}`),
    line('App version', text(app.appVersion)),
    line('Bundle id', text(app.bundleId)),
    line('Last activity', app.lastActivity !== null ? `${relativeTime(app.lastActivity, ctx.now)} (${fullDate(app.lastActivity)})` : 'never'),
    line('Created from IP address', text(app.ip)),
    line('Owner', app.owner ? `${text(app.owner.name)} (${text(app.owner.username)})` : '—'),
    '',
  ].join('\n');
}
