/** Local file names for downloads. No VS Code here (unit-tested under plain Node). */
import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * Most file systems allow 255 bytes per name; room is left for the " (12)" that freeName() may add.
 */
export const MAX_NAME_BYTES = 240;
/** Bidirectional controls and invisible formatting: "invoice\u202Efdp.exe" shows as "invoiceexe.pdf". */
const INVISIBLE = /[\u00ad\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;
/** Characters no common file system takes in a name, and control characters. */
const FORBIDDEN = /[<>:"/\\|?*\p{Cc}]/gu;
/**
 * Names Windows reserves for devices, whatever the extension and trailing spaces ("CON .txt" is CON). Windows
 * counts the superscript digits ¹ ² ³ as digits here too.
 */
const RESERVED = /^(con|prn|aux|nul|conin\$|conout\$|clock\$|com[0-9¹²³]|lpt[0-9¹²³])$/i;

/** A name that is safe as one local file name on every platform. */
export function localFileName(name: string): string {
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

/** "report.pdf" → "report (1).pdf" … the first name not taken in `folder` (bounded). */
export function freeName(folder: string, name: string, exists: (p: string) => boolean = fs.existsSync): string {
  if (!exists(path.join(folder, name))) return name;
  const ext = path.extname(name);
  const stem = name.slice(0, name.length - ext.length);
  for (let i = 1; i < 1000; i++) {
    const candidate = `${stem} (${i})${ext}`;
    if (!exists(path.join(folder, candidate))) return candidate;
  }
  return `${stem} (${Date.now()})${ext}`;
}
