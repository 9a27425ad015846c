// v2 field shapes (spec 2.8): the wide user with contextKey, and every blank field present as null.
import {
  FOLDER,
  type Account,
  type Application,
  type FileRecord,
  type Group,
  type Membership,
  type User,
} from './model';
import type { Shapes } from './serialize-v3';

const KIND_INDEX = { User: 1, Organisation: 2, Space: 3, FileRecord: 4 } as const;
type Kind = keyof typeof KIND_INDEX;

function contextKey(s: Shapes, kind: Kind, id: number): Record<string, unknown> {
  // One number space for all kinds, so context key ids never collide across kinds.
  return { id: id * 10 + KIND_INDEX[kind], objectType: `com.${s.service}.model.${kind}`, objectId: id };
}

/** Blank strings are sent as null, as v2 does. */
const blank = (v: string | null): string | null => (v === null || v.trim() === '' ? null : v);

export function userV2(s: Shapes, u: User | undefined): Record<string, unknown> | null {
  if (!u) return null;
  return {
    id: u.id,
    comments: 0,
    attachments: 0,
    contextKey: contextKey(s, 'User', u.id),
    username: u.username,
    enabled: u.enabled,
    locked: u.locked,
    twoFactorAuthentication: u.twoFactorCode !== null,
    lastModified: u.lastModified,
    lastLogin: u.lastLogin,
    lastActive: u.lastActive,
    dateCreated: u.dateCreated,
    dateActivated: u.dateActivated,
    name: u.name,
    jobTitle: blank(u.jobTitle),
    organisation: blank(u.organisation),
    email: u.email,
    address: blank(u.address),
    telephone: blank(u.telephone),
    other: blank(u.other),
    logo: u.logo,
    timeZone: u.timeZone,
    locale: u.locale,
    verifiedEmail: u.verifiedEmail,
    twoFactorMode: u.twoFactorCode !== null ? (u.twoFactorMode ?? 'Authenticator') : null,
    timeZoneOffset: u.timeZoneOffset,
    type: 'user',
  };
}

export function organisationV2(s: Shapes, a: Account): Record<string, unknown> {
  return {
    id: a.id,
    comments: 0,
    attachments: 0,
    contextKey: contextKey(s, 'Organisation', a.id),
    creator: userV2(s, s.store.users.get(a.creatorId)),
    name: a.name,
    friendlyName: a.friendlyName,
    dateCreated: a.dateCreated,
    lastModified: a.lastModified,
    enabled: a.enabled,
    domain: a.domain,
    mobileSchema: null,
    hash: a.hash,
    locale: a.locale,
    type: 'account',
    branding: {
      backgroundColor: a.branding.backgroundColor,
      textColor: a.branding.textColor,
      logo: a.branding.logo,
      logoLarge: a.branding.logo,
      logoMedium: a.branding.logo,
      background: false,
      favicon: false,
      textLogo: false,
      gradient: false,
      gradientWidth: a.branding.gradientWidth,
    },
  };
}

/** `asCreated` reproduces the create response, where the spec shows id, dates, creator, contextKey and account as null. */
export function groupV2(s: Shapes, g: Group, asCreated = false): Record<string, unknown> {
  const account = s.store.accounts.get(g.accountId);
  return {
    id: asCreated ? null : g.id,
    comments: 0,
    attachments: 0,
    contextKey: asCreated ? null : contextKey(s, 'Space', g.id),
    master: null,
    masterConfiguration: null,
    [s.service]: asCreated ? null : userV2(s, s.store.users.get(g.creatorId)),
    name: g.name,
    friendlyName: g.friendlyName,
    members: g.members.size,
    branding: { ...g.branding },
    storageConsumed: s.store.storageOf(g.id),
    dateCreated: asCreated ? null : g.dateCreated,
    lastModified: asCreated ? null : g.lastModified,
    mailKey: null,
    order: null,
    hash: null,
    components: g.components.map((name, i) => ({ name, order: i + 1, configuration: {} })),
    blind: false,
    duplicate: false,
    disableChat: g.disableChat,
    disableWidgets: g.disableWidgets,
    disableComments: g.disableComments,
    disableEmailComments: g.disableEmailComments,
    hideMemberDetails: g.hideMemberDetails,
    disableAccordionWidgets: g.disableAccordionWidgets,
    watermarkConfiguration: {
      enableWatermark: false,
      enableWatermarkIp: false,
      enableWatermarkEmail: false,
      enableWatermarkTimestamp: false,
      enableWatermarkCustomText: false,
      watermarkCustomText: null,
      watermarkStyle: null,
    },
    type: 'group',
    account: asCreated || !account ? null : organisationV2(s, account),
  };
}

export function memberV2(s: Shapes, m: Membership, withGroups: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {
    user: userV2(s, s.store.users.get(m.userId)),
    accountPermission: m.permission,
  };
  if (withGroups) {
    // fromEntries defines own properties, so a group named __proto__ is a key like any other.
    out.groups = Object.fromEntries(
      s.store.groupsOf(m.accountId).flatMap((g) => {
        const p = g.members.get(m.userId);
        return p === undefined ? [] : [[g.name, p]];
      }),
    );
  }
  return out;
}

/** Lists carry the lean record; the single-record endpoint adds description, uploader, versions, tags, lock, path and group. */
export function fileV2(s: Shapes, f: FileRecord, detail: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: f.id,
    comments: 0,
    attachments: 0,
    contextKey: contextKey(s, 'FileRecord', f.id),
    name: f.name,
    friendlyName: f.name,
    description: null,
    watermark: false,
    contentType: f.contentType,
    size: f.size,
    uploaded: null,
    versions: null,
    sharing: f.sharing,
    memberPermission: f.memberPermission,
    hidden: f.hidden,
    tags: null,
    locked: f.locked,
    locker: null,
    dateLocked: null,
    lastModified: f.lastModified,
    previewInfo: null,
    inputStream: null,
    path: null,
    available: true,
    type: 'file',
    parent: f.parentId === 0 ? null : f.parentId,
    group: null,
  };
  if (!detail) return out;
  const group = s.store.groups.get(f.groupId);
  return {
    ...out,
    description: blank(f.description),
    uploaded: { user: userV2(s, s.store.users.get(f.creatorId)), name: f.uploaderName },
    versions: f.contentType === FOLDER ? 0 : f.versions,
    tags: blank(f.tags),
    locker: f.locked && f.lockerId !== null ? userV2(s, s.store.users.get(f.lockerId)) : null,
    dateLocked: f.locked ? f.dateLocked : null,
    path: ancestorNames(s, f),
    group: group ? groupV2(s, group) : null,
  };
}

function ancestorNames(s: Shapes, f: FileRecord): string[] {
  const names: string[] = [];
  let parentId = f.parentId;
  // Bounded walk: a corrupt parent cycle must not hang a request.
  for (let depth = 0; parentId !== 0 && depth < 1000; depth++) {
    const parent = s.store.files.get(parentId);
    if (!parent) break;
    names.unshift(parent.name);
    parentId = parent.parentId;
  }
  return names;
}

export function applicationV2(s: Shapes, app: Application): Record<string, unknown> {
  const authorities = ['ROLE_CLIENT', ...app.scope.map((x) => x.toUpperCase())].map((authority) => ({ authority }));
  return {
    id: null,
    [s.service]: userV2(s, s.store.users.get(app.ownerId)),
    clientId: app.clientId,
    clientSecret: app.clientSecret,
    scope: [...app.scope],
    name: app.name,
    description: blank(app.description),
    platform: app.platform,
    deviceType: app.deviceType,
    deviceModel: blank(app.deviceModel),
    deviceOs: blank(app.deviceOs),
    appVersion: blank(app.appVersion),
    bundleId: blank(app.bundleId),
    deviceToken: blank(app.deviceToken),
    lastActivity: app.lastActivity,
    ip: app.ip,
    authorities,
    registeredRedirectUri: [],
  };
}
