/**
 * Mappings kept beside the sheets they were made for (`<sheet>.portal-mapping.json`), so next quarter's sheet, in
 * the same folder with the same columns, is imported without a question. Each file is read as untrusted input:
 * bounded in size and count, and checked by parseMapping.
 */
import * as path from 'node:path';
import { fileFacts, listFolder, readText, writeFileSafely } from '../../../node/disk';
import { mappingFits, mappingText, parseMapping, type ImportMapping } from './mapping';
import type { Sheet } from './sheet';

export const MAPPING_SUFFIX = '.portal-mapping.json';
const MAX_MAPPING_BYTES = 256 * 1024;
const MAX_MAPPINGS = 50;

/** The sheet's path without its extension: where its members file and its mapping go. */
export function sheetStem(sheet: string): string {
  return sheet.slice(0, sheet.length - path.extname(sheet).length);
}

export function mappingPath(sheet: string): string {
  return `${sheetStem(sheet)}${MAPPING_SUFFIX}`;
}

async function readMapping(file: string): Promise<{ mapping: ImportMapping; mtime: number } | undefined> {
  try {
    // A link is none of ours: the import writes its mappings as files.
    const facts = await fileFacts(file);
    if (!facts?.isFile || facts.size > MAX_MAPPING_BYTES) return undefined;
    const mapping = parseMapping(await readText(file, { maxBytes: MAX_MAPPING_BYTES }));
    return mapping ? { mapping, mtime: facts.mtimeMs } : undefined;
  } catch {
    return undefined;
  }
}

/** The mappings that fit the sheet's columns: its own first, then the others of its folder, newest first. */
export async function fittingMappings(
  sheetFile: string,
  sheet: Sheet,
): Promise<Array<{ readonly mapping: ImportMapping; readonly file: string }>> {
  const ownFile = mappingPath(sheetFile);
  const own = await readMapping(ownFile);
  const folder = path.dirname(sheetFile);
  const names = (await listFolder(folder).catch(() => []))
    .map((e) => e.name)
    .filter((n) => n.endsWith(MAPPING_SUFFIX) && path.join(folder, n) !== ownFile)
    .slice(0, MAX_MAPPINGS);
  const read = await Promise.all(
    names.map(async (n) => ({ file: path.join(folder, n), r: await readMapping(path.join(folder, n)) })),
  );
  const others = read
    .flatMap(({ file, r }) => (r && mappingFits(r.mapping, sheet) ? [{ file, ...r }] : []))
    .sort((a, b) => b.mtime - a.mtime);
  const fitting = own && mappingFits(own.mapping, sheet) ? [{ file: ownFile, ...own }, ...others] : others;
  return fitting.map(({ mapping, file }) => ({ mapping, file }));
}

/** The sheet's own mapping if it fits, else the newest mapping in its folder that fits its columns; and its file. */
export async function findMapping(
  sheetFile: string,
  sheet: Sheet,
): Promise<{ readonly mapping: ImportMapping; readonly file: string } | undefined> {
  return (await fittingMappings(sheetFile, sheet))[0];
}

/**
 * Writes a file only its owner reads (people's names and e-mails, a department table): 0600, made beside the target
 * and renamed into place, so a link at the target is refused (UnsafePathError) and nothing is written through it.
 */
export async function writePrivate(file: string, text: string): Promise<void> {
  await writeFileSafely(file, text, { replace: true });
}

export async function saveMapping(sheetFile: string, mapping: ImportMapping): Promise<void> {
  await writePrivate(mappingPath(sheetFile), mappingText(mapping));
}
