// What the pseudo-locale run accepts as translated. `npm run l10n:pseudo` turns every English letter into an
// accented look-alike ("Sign In…" reads "Şīɠƞ Īƞ…"), so a run of two or more plain ASCII letters left in a text
// is English that did not pass through package.nls.json, vscode.l10n.t or l10n.t.
//
// No product name is exempt: "Portal" and "VS Code" are translated like every other word (a translator may keep
// them), so a hard-coded one is English left over. Text that comes from the server (account, group and member
// names, usernames, e-mails, file names, tags, the base URL) is exempted by the caller through `allowed`.
import * as assert from 'node:assert/strict';

/** Parts of a text that are markup, not words: markdown link targets `](command:portal.signIn)` and codicons `$(key)`. */
const MARKUP = [/\]\([^)]*\)/g, /\$\([A-Za-z0-9~-]+\)/g];
const ENGLISH_RUN = /[A-Za-z]{2,}/g;

/** The runs of plain ASCII letters left in `text` once markup and every `allowed` string are taken out. */
export function englishLeft(text: string, allowed: readonly string[] = []): string[] {
  let rest = text;
  for (const pattern of MARKUP) rest = rest.replace(pattern, ' ');
  // Longest first, so "Acme Corp" goes before "Acme" could leave " Corp"; a space keeps the pieces apart.
  for (const value of [...allowed].filter((a) => a !== '').sort((a, b) => b.length - a.length))
    rest = rest.split(value).join(' ');
  return rest.match(ENGLISH_RUN) ?? [];
}

/** Fails when `text` still holds English once markup and the `allowed` server text are taken out. */
export function assertPseudo(text: string, allowed: readonly string[] = [], where = 'text'): void {
  const left = englishLeft(text, allowed);
  assert.deepEqual(
    left,
    [],
    `${where} is not pseudo-localised: ${JSON.stringify(text)} still reads ${left.map((w) => JSON.stringify(w)).join(', ')}`,
  );
}
