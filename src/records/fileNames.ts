/** Local file names for downloads. No VS Code here (unit-tested under plain Node). */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** A name that is safe as one local file name on every platform. */
export function localFileName(name: string): string {
  const cleaned = name
    .replace(/[<>:"/\\|?*\p{Cc}]/gu, '_')
    .replace(/[. ]+$/, '')
    .trim();
  const safe = cleaned && !/^(con|prn|aux|nul|com\d|lpt\d)(\..*)?$/i.test(cleaned) ? cleaned : `download-${cleaned || 'file'}`;
  return safe.slice(0, 200);
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

