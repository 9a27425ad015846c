/**
 * Direct HTTP to the emulator, independent of the extension's client, so a test checks the portal's
 * real state rather than trusting the code under test.
 */
export async function passwordToken(
  baseUrl: string,
  username: string,
  password: string,
  code?: string,
): Promise<string> {
  const q = new URLSearchParams({
    grant_type: 'password',
    client_id: 'portal-mobile',
    username,
    password,
    ...(code ? { code } : {}),
  });
  const res = await fetch(`${baseUrl}/oauth/token?${q}`);
  const body = (await res.json()) as { access_token?: string };
  if (!res.ok || !body.access_token) throw new Error(`password grant for ${username} failed: ${res.status}`);
  return body.access_token;
}

export async function portalJson<T = unknown>(
  baseUrl: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      accept: 'application/json',
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  // A portal that keeps to the letter of the spec answers errors as plain text or HTML: those bodies stay text.
  const json = (res.headers.get('content-type') ?? '').includes('json');
  return { status: res.status, body: (text ? (json ? JSON.parse(text) : text) : undefined) as T };
}

/**
 * Adds an enabled administrator with a password of the test's choosing to the demo portal's organisation, through
 * the portal itself, so a sign-in test meets a user no fixture text contains.
 */
export async function addAdministrator(
  baseUrl: string,
  member: { name: string; username: string; password: string },
): Promise<void> {
  const admin = await passwordToken(baseUrl, 'demo', 'demo');
  const accounts = await portalJson<{ id: number }[]>(baseUrl, admin, 'GET', '/v3/accounts');
  const accountId = accounts.body[0]?.id;
  const created = await portalJson(baseUrl, admin, 'POST', `/v3/accounts/${accountId}/members`, {
    ...member,
    email: `${member.username}@example.com`,
    enabled: true,
    rights: 16,
    admin: true,
  });
  if (created.status !== 200) throw new Error(`adding ${member.username} failed: ${JSON.stringify(created.body)}`);
}

export async function control(baseUrl: string, method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${baseUrl}/__emulator/${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return text ? JSON.parse(text) : undefined;
}
