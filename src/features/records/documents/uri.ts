/**
 * The `portal:` URI scheme. A URI names what it shows (portal, account, group, file record or application) so
 * the file-system provider can serve it again after a restart with nothing but the URI. No VS Code here: the
 * URI is handled as its authority and path strings.
 *
 *   portal://<portalId>/accounts/<a>/groups/<g>/files/<f>/<name> (record).md        the file record, as text
 *   portal://<portalId>/accounts/<a>/groups/<g>/files/<f>/content/<name>            the file's content
 *   portal://<portalId>/accounts/<a>/groups/<g>/details/<name> (group).md           a group's details
 *   portal://<portalId>/accounts/<a>/details/<name> (organisation).md               an account's details
 *   portal://<portalId>/applications/<clientId>/<name> (application).md             an application's details
 *
 * The trailing name only makes the editor tab readable ("README.md (record).md") and picks the language by its
 * extension; the ids decide what is shown, so any name parses.
 *
 * A record or content URI may carry what the row it was opened from knew, in its query (the target's `known`): a portal
 * that offers no single-record read is then still able to show the record, and its path by name.
 */
import type { FileRef, FolderStep } from '../../../shared/refs';

export type PortalTarget =
  | {
      // One variant per kind, with the same fields: a file record and its content.
      [K in 'record' | 'content']: {
        kind: K;
        portalId: string;
        accountId: number;
        groupId: number;
        fileId: number;
        name: string;
        /**
         * What the row it was opened from knew (every part optional): the record's fields as its FileRef has them,
         * and its group's name.
         */
        known?: Partial<Pick<FileRef, 'folders' | 'size' | 'lastModified' | 'contentType'>> & {
          readonly groupLabel?: string;
        };
      };
    }['record' | 'content']
  | { kind: 'group'; portalId: string; accountId: number; groupId: number; name: string }
  | { kind: 'account'; portalId: string; accountId: number; name: string }
  | { kind: 'application'; portalId: string; clientId: string; name: string };

export const PORTAL_SCHEME = 'portal';

/** A name usable as one path segment: no slashes, no control characters, not empty. */
export function safeSegment(name: string, fallback = 'untitled'): string {
  const cleaned = name
    .replace(/[\\/]/g, '∕')
    .replace(/\p{Cc}/gu, '')
    .trim();
  return cleaned && cleaned !== '.' && cleaned !== '..' ? cleaned : fallback;
}

/** The name a URI's last segment carries, without the "(record)" that only keeps editor tabs apart. */
export function shownName(name: string): string {
  return name.replace(/ \((record|group|organisation|application)\)$/, '');
}

/** The path of a target (the authority is its portal id). */
export function targetPath(t: PortalTarget): string {
  switch (t.kind) {
    case 'record':
      return `/accounts/${t.accountId}/groups/${t.groupId}/files/${t.fileId}/${safeSegment(t.name)} (record).md`;
    case 'content':
      return `/accounts/${t.accountId}/groups/${t.groupId}/files/${t.fileId}/content/${safeSegment(t.name)}`;
    case 'group':
      return `/accounts/${t.accountId}/groups/${t.groupId}/details/${safeSegment(t.name)} (group).md`;
    case 'account':
      return `/accounts/${t.accountId}/details/${safeSegment(t.name)} (organisation).md`;
    case 'application':
      return `/applications/${encodeURIComponent(t.clientId)}/${safeSegment(t.name)} (application).md`;
  }
}

/**
 * The query of a record URI: g = group name, f = "id:name" per folder (root first; "f=" alone: at the root),
 * s = size, m = modified, t = content type.
 */
export function knownQuery(k: Extract<PortalTarget, { kind: 'record' }>['known']): string {
  if (!k) return '';
  const q = new URLSearchParams();
  if (k.groupLabel) q.append('g', k.groupLabel);
  if (k.folders) {
    if (k.folders.length === 0) q.append('f', '');
    for (const f of k.folders) q.append('f', `${f.id}:${f.name}`);
  }
  if (typeof k.size === 'number') q.append('s', String(k.size));
  if (typeof k.lastModified === 'number') q.append('m', String(k.lastModified));
  if (k.contentType) q.append('t', k.contentType);
  return q.toString();
}

const wholeNumber = (v: string | null): number | undefined =>
  v !== null && /^\d{1,16}$/.test(v) ? Number(v) : undefined;

/** The folders a query names, or undefined when it names none or any step is malformed (never half a path). */
function parseFolders(steps: readonly string[]): FolderStep[] | undefined {
  if (steps.length === 0) return undefined;
  if (steps.length === 1 && steps[0] === '') return [];
  const folders: FolderStep[] = [];
  for (const step of steps) {
    const m = /^(\d{1,15}):(.*)$/s.exec(step);
    if (!m) return undefined;
    folders.push({ id: Number(m[1]), name: m[2] ?? '' });
  }
  return folders;
}

/** What a record URI's query says; anything malformed is left out, never guessed. */
export function parseKnown(query: string): Extract<PortalTarget, { kind: 'record' }>['known'] {
  if (!query) return undefined;
  const q = new URLSearchParams(query);
  const folders = parseFolders(q.getAll('f'));
  const size = wholeNumber(q.get('s'));
  const lastModified = wholeNumber(q.get('m'));
  return {
    ...(q.get('g') ? { groupLabel: q.get('g') ?? '' } : {}),
    ...(folders ? { folders } : {}),
    ...(size !== undefined ? { size } : {}),
    ...(lastModified !== undefined ? { lastModified } : {}),
    ...(q.get('t') ? { contentType: q.get('t') ?? '' } : {}),
  };
}

const ID = '(\\d{1,15})';
type Make = (
  m: RegExpExecArray,
  portalId: string,
  known: Extract<PortalTarget, { kind: 'record' }>['known'],
) => PortalTarget;
/** A record's or its content's URI: the same ids, the name last. */
const fileTarget =
  (kind: 'record' | 'content'): Make =>
  (m, portalId, known) => ({
    kind,
    portalId,
    accountId: Number(m[1]),
    groupId: Number(m[2]),
    fileId: Number(m[3]),
    name: m[4] ?? '',
    ...(known ? { known } : {}),
  });
const patterns: Array<[RegExp, Make]> = [
  [new RegExp(`^/accounts/${ID}/groups/${ID}/files/${ID}/content/([^/]+)$`), fileTarget('content')],
  [new RegExp(`^/accounts/${ID}/groups/${ID}/files/${ID}/([^/]+)\\.md$`), fileTarget('record')],
  [
    new RegExp(`^/accounts/${ID}/groups/${ID}/details/([^/]+)\\.md$`),
    (m, portalId) => ({
      kind: 'group',
      portalId,
      accountId: Number(m[1]),
      groupId: Number(m[2]),
      name: m[3] ?? '',
    }),
  ],
  [
    new RegExp(`^/accounts/${ID}/details/([^/]+)\\.md$`),
    (m, portalId) => ({
      kind: 'account',
      portalId,
      accountId: Number(m[1]),
      name: m[2] ?? '',
    }),
  ],
  [
    /^\/applications\/([^/]+)\/([^/]+)\.md$/,
    (m, portalId) => ({
      kind: 'application',
      portalId,
      clientId: decodeURIComponent(m[1] ?? ''),
      name: m[2] ?? '',
    }),
  ],
];

/** The target a URI names, or undefined when it names nothing we serve. */
export function parseTarget(authority: string, path: string, query = ''): PortalTarget | undefined {
  if (!authority) return undefined;
  for (const [re, make] of patterns) {
    const m = re.exec(path);
    if (m) {
      try {
        return make(m, authority, parseKnown(query));
      } catch {
        return undefined; // a malformed %-escape in a client id
      }
    }
  }
  return undefined;
}

/**
 * The folders a URI lies under, so `stat` can answer for them (VS Code stats parents when it opens or reveals a
 * file). Returns true for any proper prefix of a path we serve.
 */
export function isDirectoryPath(path: string): boolean {
  const parts = path.split('/').filter(Boolean);
  if (parts.length === 0) return true;
  const shapes = [
    ['accounts', ID, 'groups', ID, 'files', ID, 'content'],
    ['accounts', ID, 'groups', ID, 'details'],
    ['accounts', ID, 'details'],
    ['applications', '[^/]+'],
  ];
  return shapes.some(
    (shape) => parts.length <= shape.length && parts.every((p, i) => new RegExp(`^${shape[i] ?? ''}$`).test(p)),
  );
}
