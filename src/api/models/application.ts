/** Application (2.6, v3) and Application (2.8, v2): the client-credentials identities. */
import { parseUserV2, type UserV2 } from './v2';
import * as read from './read';
import type { JsonObject } from './read';
// Bound once, not imported by name: see the note at the top of read.ts.
const { asObject, bool, fields, numOrNull, objArray, requireObject, requireStr, str, strArray, strOrNull } = read;

export const APPLICATION_PLATFORMS = ['IOS', 'ANDROID', 'SYNC', 'LINUX', 'WINDOWS', 'OTHER'] as const;
export type ApplicationPlatform = (typeof APPLICATION_PLATFORMS)[number];
export const DEVICE_TYPES = ['Phone', 'Tablet', 'Watch', 'Browser', 'Other'] as const;
export type DeviceType = (typeof DEVICE_TYPES)[number];

/** Body of POST /v3/applications (and, with deviceToken, of POST /v2/applications). */
export interface ApplicationDraft {
  name: string;
  description?: string;
  /** Known values in APPLICATION_PLATFORMS; other strings are passed through. */
  platform?: ApplicationPlatform | (string & {});
  deviceType?: DeviceType | (string & {});
  deviceModel?: string;
  deviceOs?: string;
  appVersion?: string;
  bundleId?: string;
}

export interface ApplicationDraftV2 extends ApplicationDraft {
  /** Push notification token; the v2 clients seen in the wild send a UUID. */
  deviceToken?: string;
}

export interface ApplicationUpdate extends Partial<ApplicationDraft> {
  /** Rotate the client secret; the answer then carries the new clientSecret. */
  rotateSecret?: boolean;
}

/** What the application was registered with (an ApplicationDraft), as both versions answer it. */
export interface ApplicationDetails {
  name: string;
  description: string;
  platform: string;
  deviceType: string;
  deviceModel: string;
  deviceOs: string;
  appVersion: string;
  bundleId: string;
}

/** The fields of ApplicationDetails: what a draft registers and an update may change. */
export const APPLICATION_DETAILS = [
  'name',
  'description',
  'platform',
  'deviceType',
  'deviceModel',
  'deviceOs',
  'appVersion',
  'bundleId',
] as const satisfies readonly (keyof ApplicationDetails)[];

function parseDetails(o: JsonObject): ApplicationDetails {
  return fields(o, APPLICATION_DETAILS, str);
}

/** The user who created an application (a trimmed user object). */
export interface ApplicationOwner {
  id: number | null;
  name: string;
  username: string;
  logo: boolean;
  jobTitle: string | null;
  lastModified: number | null;
  twoFactorAuthentication: boolean;
}

export interface Application extends ApplicationDetails {
  clientId: string;
  /** Only on creation, and on update when the secret was rotated. */
  clientSecret?: string;
  /** Read from the field named after the service. */
  owner: ApplicationOwner | null;
  lastActivity: number | null;
  ip: string | null;
}

function parseOwner(json: unknown): ApplicationOwner | null {
  const o = asObject(json);
  if (!o) return null;
  return {
    id: numOrNull(o, 'id'),
    name: str(o, 'name'),
    username: str(o, 'username'),
    logo: bool(o, 'logo'),
    jobTitle: strOrNull(o, 'jobTitle'),
    lastModified: numOrNull(o, 'lastModified'),
    twoFactorAuthentication: bool(o, 'twoFactorAuthentication'),
  };
}

export function parseApplication(json: unknown, service: string): Application {
  const o = requireObject(json, 'application');
  const secret = strOrNull(o, 'clientSecret');
  return {
    clientId: requireStr(o, 'clientId', 'application'),
    ...(secret ? { clientSecret: secret } : {}),
    owner: parseOwner(o[service]),
    ...parseDetails(o),
    lastActivity: numOrNull(o, 'lastActivity'),
    ip: strOrNull(o, 'ip'),
  };
}

export interface ApplicationV2 extends ApplicationDetails {
  /** null in the samples. */
  id: number | null;
  user: UserV2 | null;
  clientId: string;
  clientSecret: string | null;
  scope: string[];
  deviceToken: string | null;
  lastActivity: number | null;
  ip: string | null;
  /** Authority names (ROLE_CLIENT, READ, WRITE, SMARTSYNC). */
  authorities: string[];
  registeredRedirectUri: string[];
}

export function parseApplicationV2(json: unknown, service: string): ApplicationV2 {
  const o = requireObject(json, 'application');
  const userJson = o[service];
  const authorities = Array.isArray(o.authorities)
    ? [
        ...objArray(o, 'authorities')
          .map((a) => str(a, 'authority'))
          .filter(Boolean),
        ...strArray(o, 'authorities'),
      ]
    : [];
  return {
    id: numOrNull(o, 'id'),
    user: asObject(userJson) ? parseUserV2(userJson) : null,
    clientId: requireStr(o, 'clientId', 'application'),
    clientSecret: strOrNull(o, 'clientSecret'),
    scope: strArray(o, 'scope'),
    ...parseDetails(o),
    deviceToken: strOrNull(o, 'deviceToken'),
    lastActivity: numOrNull(o, 'lastActivity'),
    ip: strOrNull(o, 'ip'),
    authorities,
    registeredRedirectUri: strArray(o, 'registeredRedirectUri'),
  };
}
