/**
 * The units of an upload plan, once each clash has its choice: every file as it will be sent (its path below the
 * target, a keep-both under a free name, its content type, the record a new version replaces); a skipped clash is no
 * unit. What the confirmation counts is what the run sends.
 */
import type { UploadUnit } from './kind';
import type { ClashChoice, UploadPlan } from './plan';

const TYPES: ReadonlyMap<string, string> = new Map([
  ['txt', 'text/plain'],
  ['md', 'text/markdown'],
  ['csv', 'text/csv'],
  ['json', 'application/json'],
  ['html', 'text/html'],
  ['png', 'image/png'],
  ['jpg', 'image/jpeg'],
  ['pdf', 'application/pdf'],
]);

/** X-File-Type: the portal names the type from the name itself; this only says what the bytes are, roughly. */
function contentTypeOf(path: string): string {
  const dot = path.lastIndexOf('.');
  return (dot > path.lastIndexOf('/') && TYPES.get(path.slice(dot + 1).toLowerCase())) || 'application/octet-stream';
}

/** "a.txt" → "a (1).txt", "a (2).txt"…: the first path neither the index nor the plan holds. */
function keepBothPath(path: string, taken: (path: string) => boolean): string {
  const slash = path.lastIndexOf('/');
  const folder = path.slice(0, slash + 1);
  const name = path.slice(slash + 1);
  const dot = name.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  for (let n = 1; ; n++) {
    const candidate = `${folder}${stem} (${n})${ext}`;
    if (!taken(candidate)) return candidate;
  }
}

/** The units of a plan: clashes as chosen (skip unless said otherwise), keep-both under a free name. */
export function unitsOf(plan: UploadPlan, choices: ReadonlyMap<string, ClashChoice>): UploadUnit[] {
  const taken = new Set(plan.files.map((f) => f.path.toLowerCase()));
  const units: UploadUnit[] = [];
  for (const f of plan.files) {
    const choice = f.existingId === undefined ? undefined : (choices.get(f.path) ?? 'skip');
    if (choice === 'skip') continue;
    const path = choice === 'keep-both' ? keepBothPath(f.path, (p) => taken.has(p.toLowerCase())) : f.path;
    taken.add(path.toLowerCase());
    units.push({
      seq: units.length,
      path,
      localPath: f.localPath,
      size: f.size,
      identity: f.identity,
      contentType: contentTypeOf(path),
      ...(choice === 'version' && f.existingId !== undefined ? { replaceId: f.existingId } : {}),
    });
  }
  return units;
}
