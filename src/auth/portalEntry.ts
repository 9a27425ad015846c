import * as vscode from 'vscode';
import { userValue } from './settings';

/** A portal the user has added: what lives in settings. Nothing secret, by design. */
export interface PortalEntry {
  readonly id: string;
  readonly label: string;
  readonly baseUrl: string;
  readonly service: string;
}

const SECTION = 'portal';
const KEY = 'portals';

/** One portal per (origin, service): signing in to the same one again replaces its session. */
export function portalIdOf(baseUrl: string, service: string): string {
  const url = new URL(baseUrl);
  return `${url.protocol.replace(':', '')}-${url.host}-${service}`.toLowerCase().replace(/[^a-z0-9.-]+/g, '-');
}

export function normaliseBaseUrl(raw: string): string {
  const url = new URL(raw.trim());
  url.hash = '';
  url.search = '';
  return url.toString().replace(/\/+$/, '');
}

/** The usual service name: what a sign-in assumes unless the user names another. */
export const DEFAULT_SERVICE = 'portal';

/**
 * The listed portal a typed address and service stand for: the same normalised base URL and service is the same portal,
 * whatever id or label its entry has, so signing in to it never lists it twice.
 */
export function listedPortal(
  entries: readonly PortalEntry[],
  baseUrl: string,
  service: string,
): PortalEntry | undefined {
  const wanted = comparable(baseUrl);
  return entries.find(
    (e) =>
      wanted !== undefined && comparable(e.baseUrl) === wanted && e.service.toLowerCase() === service.toLowerCase(),
  );
}

/** A base URL as sign-in compares it; undefined for a hand-edited entry that is not a URL. */
function comparable(baseUrl: string): string | undefined {
  try {
    return normaliseBaseUrl(baseUrl);
  } catch {
    return undefined;
  }
}

function isEntry(v: unknown): v is PortalEntry {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  return typeof o.id === 'string' && typeof o.baseUrl === 'string';
}

/** The user's own portal list: a workspace's list is never read, so it can neither add a portal nor re-point one. */
export function readPortalEntries(): PortalEntry[] {
  const raw = userValue<unknown>(SECTION, KEY);
  const entries: PortalEntry[] = [];
  for (const v of Array.isArray(raw) ? raw : []) {
    if (!isEntry(v)) continue;
    const o = v as unknown as Record<string, unknown>;
    entries.push({
      id: v.id,
      baseUrl: v.baseUrl,
      label: typeof o.label === 'string' && o.label ? o.label : hostOf(v.baseUrl),
      service: typeof o.service === 'string' && o.service ? o.service : 'portal',
    });
  }
  return entries;
}

/** The host of a base URL for a label; a hand-edited entry that is not a URL is shown as typed, not thrown on. */
function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host || baseUrl;
  } catch {
    return baseUrl;
  }
}

/** Writes the user's list; built from readPortalEntries(), so a workspace's entries are never copied into it. */
export async function writePortalEntries(entries: readonly PortalEntry[]): Promise<void> {
  await vscode.workspace.getConfiguration(SECTION).update(
    KEY,
    entries.map((e) => ({ id: e.id, label: e.label, baseUrl: e.baseUrl, service: e.service })),
    vscode.ConfigurationTarget.Global,
  );
}
