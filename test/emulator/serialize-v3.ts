// v3 field shapes (spec 2.1-2.7): the trimmed user, with nullable fields sent as null.
import { COMPONENTS, PACKAGE_COMPONENTS, capabilitiesFor, type ComponentInfo } from './catalog';
import type { Account, Application, Membership, User } from './model';
import type { Store } from './store';

export interface Shapes {
  store: Store;
  service: string;
}

export function userV3(u: User): Record<string, unknown> {
  return {
    id: u.id,
    username: u.username,
    enabled: u.enabled,
    locked: u.locked,
    name: u.name,
    jobTitle: u.jobTitle,
    organisation: u.organisation,
    email: u.email,
    address: u.address,
    telephone: u.telephone,
    other: u.other,
    logo: u.logo,
    timeZone: u.timeZone,
    locale: u.locale,
    verifiedEmail: u.verifiedEmail,
    lastModified: u.lastModified,
    dateFormat: u.dateFormat,
    twentyFourHourTimeFormat: u.twentyFourHourTimeFormat,
    twoFactorAuthentication: u.twoFactorCode !== null,
    lastActive: u.lastActive,
    realName: u.realName ?? u.name,
  };
}

/** The creator embedded in an application (spec 2.6). */
export function applicationUser(u: User | undefined): Record<string, unknown> | null {
  if (!u) return null;
  return {
    id: u.id,
    name: u.name,
    username: u.username,
    logo: u.logo,
    jobTitle: u.jobTitle,
    lastModified: u.lastModified,
    twoFactorAuthentication: u.twoFactorCode !== null,
  };
}

export function accountV3(a: Account): Record<string, unknown> {
  return {
    id: a.id,
    name: a.name,
    friendlyName: a.friendlyName,
    enabled: a.enabled,
    hash: a.hash,
    domain: a.domain,
    locale: a.locale,
    dateCreated: a.dateCreated,
    lastModified: a.lastModified,
    twoFactorModes: [...a.twoFactorModes],
    twoFactorEnforce: a.twoFactorEnforce,
  };
}

export function applicationV3(s: Shapes, app: Application, withSecret: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = { clientId: app.clientId };
  if (withSecret) out.clientSecret = app.clientSecret;
  Object.assign(out, {
    [s.service]: applicationUser(s.store.users.get(app.ownerId)),
    name: app.name,
    description: app.description,
    platform: app.platform,
    deviceType: app.deviceType,
    deviceModel: app.deviceModel,
    deviceOs: app.deviceOs,
    appVersion: app.appVersion,
    bundleId: app.bundleId,
    lastActivity: app.lastActivity,
    ip: app.ip,
  });
  return out;
}

export function memberV3(s: Shapes, m: Membership): Record<string, unknown> {
  const u = s.store.users.get(m.userId);
  if (!u) throw new Error(`membership of missing user ${m.userId}`);
  const assigned = s.store.groupIdsOf(m.accountId, u.id);
  return {
    user: userV3(u),
    permission: m.permission,
    assignToNewGroupsPermission: m.assignToNewGroupsPermission,
    notAssigned:
      m.assignToNewGroupsPermission === 0
        ? []
        : s.store
            .groupsOf(m.accountId)
            .filter((g) => !assigned.has(g.id))
            .map((g) => g.id),
    assigningToGroups: false,
    dateCreated: m.dateCreated,
    memberOfMultipleAccounts: s.store.accountsOf(u.id).length > 1,
    tags: [...m.tags],
    pendingUnlock: u.pendingUnlock,
    activationType: m.activationType,
    twoFactorAuthentication: u.twoFactorCode !== null,
  };
}

export function componentsOf(a: Account): ComponentInfo[] {
  const names = new Set(a.subscription.components.length > 0 ? a.subscription.components : PACKAGE_COMPONENTS.basic);
  return COMPONENTS.filter((c) => names.has(c.name)).map((c) => ({
    ...c,
    ...(a.componentText && Object.hasOwn(a.componentText, c.name) ? a.componentText[c.name] : {}),
  }));
}

export function subscriptionV3(s: Shapes, a: Account): Record<string, unknown> {
  const sub = a.subscription;
  const b = sub.billing;
  const storageUsed = s.store.groupsOf(a.id).reduce((sum, g) => sum + s.store.storageOf(g.id), 0);
  return {
    accountPackage: {
      code: sub.code,
      trialExpires: sub.trialExpires,
      paused: sub.paused,
      pausedBillingCycles: sub.pausedBillingCycles,
      datePausedAt: sub.datePausedAt,
      planDetails: { interval: sub.interval, currency: sub.currency },
      members: sub.membersLimit,
      storage: sub.storage,
      emailQuota: sub.emailQuota,
      suspended: sub.suspended,
    },
    plan: sub.plan,
    storageUsed,
    membersUsed: s.store.memberCount(a.id),
    emailsUsed: sub.emailsUsed,
    billingDetails: {
      firstName: b.firstName,
      lastName: b.lastName,
      email: b.email,
      address1: b.address1,
      address2: b.address2,
      city: b.city,
      state: b.state,
      zip: b.zip,
      country: b.country,
      card: {
        // Only the last four digits ever leave the server.
        number: `************${b.cardLastFour}`,
        type: b.cardType,
        lastFour: b.cardLastFour,
        verificationValue: '***',
        expirationMonth: b.expirationMonth,
        expirationYear: b.expirationYear,
      },
    },
  };
}

export function userinfoV3(s: Shapes, u: User): Record<string, unknown> {
  const accounts = s.store.accountsOf(u.id).flatMap((m) => {
    const a = s.store.accounts.get(m.accountId);
    if (!a) return [];
    const groups = s.store.groupsOf(a.id);
    return [
      {
        account: accountV3(a),
        subscription: {
          code: a.subscription.code,
          trialExpires: a.subscription.trialExpires,
          paused: a.subscription.paused,
        },
        permission: m.permission,
        memberOfSpaces: s.store.groupIdsOf(a.id, u.id).size,
        adminInSpaces: groups.filter((g) => g.members.get(u.id) === 16).length,
        features: [...a.features],
        components: a.enabled ? componentsOf(a).map((c) => c.name) : null,
        capabilities: capabilitiesFor(m.permission, a.withheldCapabilities),
        mailDomain: a.mailDomain,
        twoFactorAuthentication: a.twoFactorModes.length > 0,
        metadata: { ...a.metadata },
        admin: m.permission === 16,
      },
    ];
  });
  return { name: u.username, [s.service]: userV3(u), authorities: ['ROLE_USER'], accounts };
}
