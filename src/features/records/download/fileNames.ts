/** Local file names for downloads. No VS Code here (unit-tested under plain Node). */
import * as path from 'node:path';
import { isTakenSync } from '../../../node/disk';

/**
 * Most file systems allow 255 bytes per name; room is left for the " (12)" that freeName() may add.
 */
export const MAX_NAME_BYTES = 240;
/**
 * Bidirectional controls and invisible formatting: "invoice\u202Efdp.exe" shows as "invoiceexe.pdf". HFS+ also
 * ignores U+206A-U+206F in a name, so ".g\u206Ait" would be ".git" there.
 */
const INVISIBLE = /[\u00ad\u061c\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff]/g;
/** Characters no common file system takes in a name, and control characters. */
const FORBIDDEN = /[<>:"/\\|?*\p{Cc}]/gu;
/**
 * Names Windows reserves for devices, whatever the extension and trailing spaces ("CON .txt" is CON). Windows
 * counts the superscript digits ¹ ² ³ as digits here too.
 */
const RESERVED = /^(con|prn|aux|nul|conin\$|conout\$|clock\$|com[0-9¹²³]|lpt[0-9¹²³])$/i;

/**
 * Folders tools run commands from: Git's (its config names programs, e.g. core.fsmonitor runs on the next
 * `git status`; a file named .git points Git at another folder) and VS Code's (a task may run when the folder is
 * opened). Matched on the safe name, so case, trailing dots and spaces and invisible characters do not hide them;
 * Windows also reaches them by their 8.3 short names (GIT~1, VSCODE~2, …).
 */
const TOOL_FOLDER = /^(?:\.(?:git|vscode)|\.?(?:git|vscode)~\d+)$/i;

/** A name safe on every platform, before the tool-folder rule. */
function safeName(name: string): string {
  const cleaned = name
    .normalize('NFC')
    .replace(INVISIBLE, '')
    .replace(FORBIDDEN, '_')
    .trim()
    // Windows drops trailing dots and spaces, so "a." and "a" would be one file; ".." would be the parent.
    .replace(/[. ]+$/, '');
  const stem = (cleaned.split('.')[0] ?? '').trim();
  const safe = cleaned && !RESERVED.test(stem) ? cleaned : `download-${cleaned || 'file'}`;
  return truncateBytes(safe, MAX_NAME_BYTES);
}

/** True when a portal name would land as a folder tools run commands from; localFileName() renames it visibly. */
export function isToolFolderName(name: string): boolean {
  return TOOL_FOLDER.test(safeName(name));
}

/** A name that is safe as one local file name on every platform, and never a folder tools run commands from. */
export function localFileName(name: string): string {
  const safe = safeName(name);
  // ".git" → "_git", "GIT~1" → "_GIT~1": still recognisable, no longer the tool's folder.
  return TOOL_FOLDER.test(safe) ? `_${safe.replace(/^\./, '')}` : safe;
}

/**
 * The names that make a folder a bare repository's layout to Git: with `HEAD` beside `objects/`, `refs/`, `config`
 * or `commondir`, Git run inside the folder (or the `_git` a `.git` became) takes it for a repository and reads its
 * `config`, whose `core.pager` runs on `git log`. Renaming `HEAD` ends the layout; `config` goes too, so nothing
 * Git might still read names a program. Compared without case: macOS and Windows file systems ignore it.
 */
const REPOSITORY_PART = /^(objects|refs|config|commondir)$/i;
const REPOSITORY_RENAMED = /^(head|config)$/i;

/** True when a folder holding these local names reads as a repository to Git. */
export function readsAsRepository(localNames: readonly string[]): boolean {
  return localNames.some((n) => /^head$/i.test(n)) && localNames.some((n) => REPOSITORY_PART.test(n));
}

/** In a folder that reads as a repository, `HEAD` → `_HEAD` and `config` → `_config`; other names unchanged. */
export function outOfRepositoryLayout(localName: string, inRepositoryLayout: boolean): string {
  return inRepositoryLayout && REPOSITORY_RENAMED.test(localName) ? `_${localName}` : localName;
}

/** Cuts a name to `maxBytes` of UTF-8, keeping its extension and never splitting a character. */
export function truncateBytes(name: string, maxBytes: number): string {
  if (Buffer.byteLength(name, 'utf8') <= maxBytes) return name;
  const ext = path.extname(name);
  const keepExt = Buffer.byteLength(ext, 'utf8') <= maxBytes / 4 ? ext : '';
  const budget = maxBytes - Buffer.byteLength(keepExt, 'utf8');
  let out = '';
  let used = 0;
  // Iterating a string yields whole code points, so a surrogate pair is kept or dropped together.
  for (const ch of name.slice(0, name.length - keepExt.length)) {
    const size = Buffer.byteLength(ch, 'utf8');
    if (used + size > budget) break;
    out += ch;
    used += size;
  }
  return `${out.replace(/[. ]+$/, '')}${keepExt}`;
}

/** "report.pdf" → "report (1).pdf" … the first name not taken in `folder` (bounded); a link, even a dangling one, takes it. */
export function freeName(folder: string, name: string, exists: (p: string) => boolean = isTakenSync): string {
  if (!exists(path.join(folder, name))) return name;
  const ext = path.extname(name);
  const stem = name.slice(0, name.length - ext.length);
  for (let i = 1; i < 1000; i++) {
    const candidate = `${stem} (${i})${ext}`;
    if (!exists(path.join(folder, candidate))) return candidate;
  }
  return `${stem} (${Date.now()})${ext}`;
}
