/**
 * How sizes, counts, dates and content types read in the views, the record documents and the forms. Pure: the
 * extension host, the webview bundle and the unit tier all load it.
 */
import * as l10n from '@vscode/l10n';
import type { CustomNames } from '../api/models/v2';

/** 1,536 → "1.5 KB"; binary multiples, because that is how storage quotas are counted. */
export function humanSize(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes) || bytes < 0) return l10n.t('size not reported');
  if (bytes < 1024) return bytes === 1 ? l10n.t('1 byte') : l10n.t('{0} bytes', bytes);
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < 4) {
    value /= 1024;
    unit++;
  }
  const n = value >= 100 ? value.toFixed(0) : value.toFixed(1);
  switch (unit) {
    case 1:
      return l10n.t('{0} KB', n);
    case 2:
      return l10n.t('{0} MB', n);
    case 3:
      return l10n.t('{0} GB', n);
    default:
      return l10n.t('{0} TB', n);
  }
}

/** "2025-01-15 09:00" in the local time zone: short enough for a tree row. */
export function shortDate(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '';
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** ISO (UTC) and local, for documents where either reader may need the exact instant. */
export function fullDate(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return l10n.t('not set');
  const d = new Date(ms);
  // Finite but beyond what a Date holds (±8.64e15 ms): say so rather than throw from toISOString().
  if (Number.isNaN(d.getTime())) return l10n.t('not a date ({0})', ms);
  return l10n.t('{0} (local: {1})', d.toISOString(), `${shortDate(ms)}:${String(d.getSeconds()).padStart(2, '0')}`);
}

/** 1234 → "1,234": one way of writing counts in every view and form. */
export function count(n: number): string {
  return n.toLocaleString('en-US');
}

/** "50 of 20,000" when the total is known, "50 loaded" otherwise. */
export function countLabel(loaded: number, total: number | undefined): string {
  if (total !== undefined && total >= loaded) return l10n.t('{0} of {1}', count(loaded), count(total));
  return l10n.t('{0} loaded', count(loaded));
}

/** "15 Jan 2025" in the reader's own style: for dates where the time of day does not matter. */
export function calendarDate(ms: number): string {
  return new Date(ms).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
}

/** "in 3 days", "2 days ago", "today". */
export function relativeDays(ms: number, now = Date.now()): string {
  const days = Math.round((ms - now) / 86_400_000);
  if (days === 0) return l10n.t('today');
  if (days === 1) return l10n.t('in 1 day');
  if (days > 0) return l10n.t('in {0} days', days);
  return days === -1 ? l10n.t('1 day ago') : l10n.t('{0} days ago', -days);
}

type Unit = 'second' | 'minute' | 'hour' | 'day' | 'month' | 'year';

/** "3 days ago", one message per unit and number, so each language can say it its own way. */
const AGO: Readonly<Record<Unit, readonly [one: () => string, many: (n: number) => string]>> = {
  second: [() => l10n.t('1 second ago'), (n) => l10n.t('{0} seconds ago', n)],
  minute: [() => l10n.t('1 minute ago'), (n) => l10n.t('{0} minutes ago', n)],
  hour: [() => l10n.t('1 hour ago'), (n) => l10n.t('{0} hours ago', n)],
  day: [() => l10n.t('1 day ago'), (n) => l10n.t('{0} days ago', n)],
  month: [() => l10n.t('1 month ago'), (n) => l10n.t('{0} months ago', n)],
  year: [() => l10n.t('1 year ago'), (n) => l10n.t('{0} years ago', n)],
};

function ago(value: number, unit: Unit): string {
  const [one, many] = AGO[unit];
  return value === 1 ? one() : many(value);
}

/** "3 days ago": for last activity, where the order of magnitude matters more than the minute. */
export function relativeTime(ms: number | null | undefined, now = Date.now()): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return l10n.t('never');
  const s = Math.round((now - ms) / 1000);
  if (s < 0) return shortDate(ms);
  const steps: Array<[number, Unit]> = [
    [60, 'second'],
    [60, 'minute'],
    [24, 'hour'],
    [30, 'day'],
    [12, 'month'],
  ];
  let value = s;
  for (const [size, unit] of steps) {
    if (value < size) return ago(value, unit);
    value = Math.floor(value / size);
  }
  return ago(value, 'year');
}

/**
 * How long until relativeTime's words for something `ageMs` old change ("2 seconds ago" → "3 seconds ago", "5 minutes
 * ago" → "6 minutes ago"): what a shown age waits before it is said again. Past a day, it is said again daily.
 */
export function untilRelativeTimeChanges(ageMs: number): number {
  const s = Math.round(ageMs / 1000);
  const unit = s < 60 ? 1 : s < 3600 ? 60 : s < 86_400 ? 3600 : 86_400;
  const next = (Math.floor(s / unit) + 1) * unit;
  return Math.max(20, (next - 0.5) * 1000 - ageMs);
}

/** A codicon id for a content type (VS Code's product icons, so themes restyle them). */
export function iconForContentType(contentType: string, name = ''): string {
  const type = contentType.toLowerCase();
  const ext = name.toLowerCase().split('.').pop() ?? '';
  if (type === '@folder') return 'folder';
  if (type.startsWith('image/')) return 'file-media';
  if (type.startsWith('video/') || type.startsWith('audio/')) return 'file-media';
  if (type === 'application/pdf') return 'file-pdf';
  if (
    type.includes('zip') ||
    type.includes('compressed') ||
    type.includes('tar') ||
    ['zip', 'gz', 'tgz', '7z'].includes(ext)
  )
    return 'file-zip';
  if (
    type.includes('spreadsheet') ||
    type.includes('excel') ||
    type === 'text/csv' ||
    ['xlsx', 'xls', 'csv'].includes(ext)
  )
    return 'table';
  if (type.includes('presentation') || type.includes('powerpoint') || ['pptx', 'ppt'].includes(ext)) return 'preview';
  if (type.includes('json') || type.includes('xml') || type.includes('javascript') || type.includes('typescript'))
    return 'file-code';
  if (type.startsWith('text/') || type.includes('word') || type.includes('document')) return 'file-text';
  return 'file';
}

/** True for content an editor can show as text. */
export function isTextContentType(contentType: string, name = ''): boolean {
  const type = contentType.toLowerCase().split(';')[0]?.trim() ?? '';
  if (type.startsWith('text/')) return true;
  if (/(json|xml|javascript|typescript|yaml|x-sh|x-python|sql|csv|markdown)/.test(type)) return true;
  return /\.(txt|md|markdown|csv|json|xml|ya?ml|log|ini|cfg|conf|ts|js|py|sh|sql|html?|css)$/i.test(name);
}

/**
 * The organisation's word for the files component, singular and plural. The custom-names answer's field names are
 * not documented; the emulator (and the shape of the v2 answer) uses `file` / `files`.
 */
export function filesWord(names: CustomNames | undefined): { one: string; many: string; own: boolean } {
  const many = names?.files?.trim() || names?.filesPlural?.trim();
  const one = names?.file?.trim() || names?.filesSingular?.trim();
  return { one: one || l10n.t('File'), many: many || l10n.t('Files'), own: Boolean(many) };
}

export const yesNo = (value: boolean): string => (value ? l10n.t('yes') : l10n.t('no'));
export const onOff = (value: boolean): string => (value ? l10n.t('on') : l10n.t('off'));
/** A field the portal may leave out: null reads "not given", never a default. */
export const given = <T>(value: T | null, show: (v: T) => string): string =>
  value === null ? l10n.t('not given') : show(value);
