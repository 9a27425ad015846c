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
 */

export type PortalTarget =
  | { kind: 'record'; portalId: string; accountId: number; groupId: number; fileId: number; name: string }
  | { kind: 'content'; portalId: string; accountId: number; groupId: number; fileId: number; name: string }
  | { kind: 'group'; portalId: string; accountId: number; groupId: number; name: string }
  | { kind: 'account'; portalId: string; accountId: number; name: string }
  | { kind: 'application'; portalId: string; clientId: string; name: string };

export const PORTAL_SCHEME = 'portal';

/** A name usable as one path segment: no slashes, no control characters, not empty. */
export function safeSegment(name: string, fallback = 'untitled'): string {
  const cleaned = name.replace(/[\\/]/g, '∕').replace(/\p{Cc}/gu, '').trim();
  return cleaned && cleaned !== '.' && cleaned !== '..' ? cleaned : fallback;
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

const ID = '(\\d{1,15})';
const patterns: Array<[RegExp, (m: RegExpExecArray, portalId: string) => PortalTarget]> = [
  [new RegExp(`^/accounts/${ID}/groups/${ID}/files/${ID}/content/([^/]+)$`), (m, portalId) => ({
    kind: 'content', portalId, accountId: Number(m[1]), groupId: Number(m[2]), fileId: Number(m[3]), name: m[4] ?? '',
  })],
  [new RegExp(`^/accounts/${ID}/groups/${ID}/files/${ID}/([^/]+)\\.md$`), (m, portalId) => ({
    kind: 'record', portalId, accountId: Number(m[1]), groupId: Number(m[2]), fileId: Number(m[3]), name: m[4] ?? '',
  })],
  [new RegExp(`^/accounts/${ID}/groups/${ID}/details/([^/]+)\\.md$`), (m, portalId) => ({
    kind: 'group', portalId, accountId: Number(m[1]), groupId: Number(m[2]), name: m[3] ?? '',
  })],
  [new RegExp(`^/accounts/${ID}/details/([^/]+)\\.md$`), (m, portalId) => ({
    kind: 'account', portalId, accountId: Number(m[1]), name: m[2] ?? '',
  })],
  [/^\/applications\/([^/]+)\/([^/]+)\.md$/, (m, portalId) => ({
    kind: 'application', portalId, clientId: decodeURIComponent(m[1] ?? ''), name: m[2] ?? '',
  })],
];

/** The target a URI names, or undefined when it names nothing we serve. */
export function parseTarget(authority: string, path: string): PortalTarget | undefined {
  if (!authority) return undefined;
  for (const [re, make] of patterns) {
    const m = re.exec(path);
    if (m) {
      try {
        return make(m, authority);
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
  return shapes.some((shape) =>
    parts.length <= shape.length && parts.every((p, i) => new RegExp(`^${shape[i] ?? ''}$`).test(p)),
  );
}
