/**
 * A list of leavers (HR's sheet, read by the import's bounded reader) matched to members: by a username column when
 * it has one, else by an e-mail column. Pure.
 */
import type { Sheet } from '../import/sheet';
import type { PortalMember } from '../plan/core/model';

const squash = (h: string): string =>
  h
    .trim()
    .toLowerCase()
    .replace(/[\s_.-]/g, '');
const USERNAME = new Set(['username', 'user', 'login', 'userid', 'benutzername', 'nomdutilisateur']);
const EMAIL = new Set(['email', 'emailaddress', 'mail', 'workemail', 'courriel']);

/** Which column names people: a username column first, else an e-mail column; undefined when neither. */
export function leaverColumn(
  headers: readonly string[],
): { readonly index: number; readonly by: 'username' | 'email' } | undefined {
  const u = headers.findIndex((h) => USERNAME.has(squash(h)));
  if (u >= 0) return { index: u, by: 'username' };
  const e = headers.findIndex((h) => EMAIL.has(squash(h)));
  return e >= 0 ? { index: e, by: 'email' } : undefined;
}

/** The members the sheet names (once each, in its order), and the names it gives that are no member's. */
export function leaversIn(
  sheet: Pick<Sheet, 'headers' | 'rows'>,
  members: Iterable<Pick<PortalMember, 'username' | 'email'>>,
): { readonly usernames: string[]; readonly notFound: string[] } | { readonly problem: 'no-column' } {
  const column = leaverColumn(sheet.headers);
  if (!column) return { problem: 'no-column' };
  const byKey = new Map<string, string>();
  for (const m of members) byKey.set((column.by === 'username' ? m.username : m.email).toLowerCase(), m.username);
  const usernames: string[] = [];
  const notFound: string[] = [];
  const seen = new Set<string>();
  for (const row of sheet.rows) {
    const cell = (row[column.index] ?? '').trim();
    if (!cell || seen.has(cell.toLowerCase())) continue;
    seen.add(cell.toLowerCase());
    const username = byKey.get(cell.toLowerCase());
    if (username) usernames.push(username);
    else notFound.push(cell);
  }
  return { usernames, notFound };
}
