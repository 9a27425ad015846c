// Test harness: a real emulator on a free port, driven by real HTTP requests.
import assert from 'node:assert/strict';
import { startEmulator, type Emulator, type EmulatorOptions } from '../../emulator';
import { suiteFixture } from '../suiteFixture';

export interface Res<T> {
  status: number;
  headers: Headers;
  text: string;
  body: T;
}

export interface CallOptions {
  token?: string;
  body?: unknown;
  /** Sent as is, for malformed-input tests. */
  rawBody?: string;
  headers?: Record<string, string>;
}

/** The loosely-typed JSON tests read; each test narrows what it looks at. */
export type Obj = Record<string, unknown>;

export interface Harness {
  emu: Emulator;
  url: string;
  login(username?: string, password?: string, code?: string): Promise<string>;
  call<T = Obj>(method: string, path: string, options?: CallOptions): Promise<Res<T>>;
  control<T = Obj>(method: string, path: string, body?: unknown): Promise<Res<T>>;
  stop(): Promise<void>;
}

export async function startHarness(options: Partial<EmulatorOptions> = {}): Promise<Harness> {
  const emu = await startEmulator({ quiet: true, ...options });
  const call = async <T>(method: string, path: string, o: CallOptions = {}): Promise<Res<T>> => {
    const headers: Record<string, string> = { Accept: 'application/json', ...o.headers };
    if (o.token) headers.Authorization = `Bearer ${o.token}`;
    let body: string | undefined = o.rawBody;
    if (o.body !== undefined) {
      body = JSON.stringify(o.body);
      headers['Content-Type'] ??= 'application/json';
    }
    const res = await fetch(emu.url + path, { method, headers, body, signal: AbortSignal.timeout(15_000) });
    const text = await res.text();
    let parsed: unknown = undefined;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return { status: res.status, headers: res.headers, text, body: parsed as T };
  };
  const login = async (username = 'demo', password = 'demo', code?: string): Promise<string> => {
    const q = new URLSearchParams({ grant_type: 'password', client_id: 'portal-mobile', username, password });
    if (code) q.set('code', code);
    const res = await call<{ access_token: string }>('GET', `/oauth/token?${q}`);
    assert.equal(res.status, 200, `login ${username}: ${res.text}`);
    return res.body.access_token;
  };
  return {
    emu,
    url: emu.url,
    call,
    login,
    control: (method, path, body) => call(method, `/__emulator${path}`, body === undefined ? {} : { body }),
    stop: () => emu.stop(),
  };
}

/** A harness, and a bearer token for the demo super administrator. */
export async function startWithDemo(): Promise<{ h: Harness; demo: string }> {
  const h = await startHarness();
  return { h, demo: await h.login() };
}

/** What most suites start from: startWithDemo, and a bearer token for a regular member as well. */
export async function startWithDemoAndMember(): Promise<{ h: Harness; demo: string; member: string }> {
  const { h, demo } = await startWithDemo();
  return { h, demo, member: await h.login('member') };
}

export interface Envelope3<T> {
  items: T[];
  currentPage: number;
  totalPages: number;
  pageSize: number;
  totalResults: number;
  nextPage: boolean;
  previousPage: boolean;
}
export interface User3 {
  id: number;
  username: string;
  name: string;
  email: string;
  enabled: boolean;
  locked: boolean;
  dateFormat: unknown;
  twoFactorAuthentication: boolean;
  lastActive: number | null;
  realName: string;
}
export interface Member3 {
  user: User3;
  permission: number;
  tags: string[];
  assignToNewGroupsPermission: number;
  notAssigned: number[];
  dateCreated: number;
  memberOfMultipleAccounts: boolean;
  pendingUnlock: boolean;
  activationType: unknown;
  twoFactorAuthentication: boolean;
}
export interface App3 {
  clientId: string;
  clientSecret?: string;
  name: string;
  platform: string;
  deviceType: string;
  lastActivity: number | null;
  ip: string | null;
  [k: string]: unknown;
}
export interface Account3 {
  id: number;
  name: string;
  friendlyName: string;
  enabled: boolean;
  locale: string | null;
  [k: string]: unknown;
}
export interface Group2 {
  id: number | null;
  name: string;
  friendlyName: string;
  members: number;
  storageConsumed: number;
  components: Array<{ name: string; order: number }>;
  account: Obj | null;
  disableChat: boolean;
  branding: Obj;
  [k: string]: unknown;
}
export interface File2 {
  id: number;
  name: string;
  contentType: string;
  size: number;
  lastModified: number;
  parent: number | null;
  path: string[] | null;
  description: string | null;
  tags: string | null;
  versions: number | null;
  uploaded: { user: Obj | null; name: string } | null;
  locked: boolean;
  locker: Obj | null;
  dateLocked: number | null;
  group: Obj | null;
  [k: string]: unknown;
}
export interface FilePage {
  page: File2[];
  currentPage: number;
  pageSize: number;
  nextPage: boolean;
}
export interface Member2 {
  user: Obj & { username: string; name: string; email: string };
  accountPermission: number;
  groups?: Record<string, number>;
}
export interface Member2Page {
  page: Member2[];
  currentPage: number;
  pageSize: number;
  nextPage: boolean;
  previousPage: boolean;
  totalResults: number;
  totalPages: number;
}
export interface ApiErrorBody {
  error: string;
  message: string;
  fieldErrors?: Array<{ field: string; message: string }>;
}

/** Demo ids that are part of the documented seed. */
export const DEMO = {
  acme: 1,
  globex: 2,
  archive: 3,
  engineering: 101,
  marketing: 102,
  handbook: 103,
  social: 104,
  research: 105,
  operations: 106,
  oldProjects: 107,
} as const;

/** Every file record of a group, page by page (`query` picks recursion or order), as the v2 listing gives them. */
export async function allFiles(
  h: Harness,
  token: string,
  account: number,
  group: number,
  query = 'recursive=true',
): Promise<File2[]> {
  const out: File2[] = [];
  for (let page = 1; page <= 1000; page++) {
    const res = await h.call<FilePage>(
      'GET',
      `/v2/accounts/${account}/groups/${group}/files?${query}&size=100&page=${page}`,
      { token },
    );
    assert.equal(res.status, 200, res.text);
    out.push(...res.body.page);
    if (!res.body.nextPage) break;
  }
  return out;
}

export function assertError(res: Res<unknown>, status: number, code: string): void {
  assert.equal(res.status, status, `expected ${status} ${code}, got ${res.status}: ${res.text}`);
  assert.match(res.headers.get('content-type') ?? '', /^application\/json; charset=utf-8/);
  const body = res.body as ApiErrorBody;
  assert.equal(body.error, code);
  assert.equal(typeof body.message, 'string');
  assert.ok(body.message.length > 0);
}

export function fieldsOf(res: Res<unknown>): string[] {
  return ((res.body as ApiErrorBody).fieldErrors ?? []).map((f) => f.field);
}

/** For a describe block: a harness with demo and member tokens, started before its tests and stopped after them. */
export { suiteFixture };

export function demoAndMemberSuite(): { h: Harness; demo: string; member: string } {
  return suiteFixture(startWithDemoAndMember, ({ h }) => h.stop());
}

/** For a describe block: a harness with the demo token, started before its tests and stopped after them. */
export function demoSuite(): { h: Harness; demo: string } {
  return suiteFixture(startWithDemo, ({ h }) => h.stop());
}
