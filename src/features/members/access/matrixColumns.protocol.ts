/**
 * The access matrix's column widths: the member's own columns (who, last active, state, organisation permission, last sign-in) and
 * one width for every group column. A header's right edge drags to widen a column whose text is cut off, and the
 * page keeps the widths with its filter. Pure: the page draws with it, the host checks what the page kept.
 */
import { int, object, optional } from '../../../forms/protocol/validate';

export const COLUMN_KINDS = ['who', 'last', 'state', 'perm', 'signin', 'group'] as const;
export type ColumnKind = (typeof COLUMN_KINDS)[number];
export type ColumnWidths = Readonly<Record<ColumnKind, number>>;

export const DEFAULT_WIDTHS: ColumnWidths = { who: 210, last: 100, state: 110, perm: 100, signin: 100, group: 104 };
/** Narrower, a column shows nothing readable; wider, one column takes more than a screen. */
export const MIN_WIDTH = 40;
export const MAX_WIDTH = 1200;

/** `widths` with `column` at `width` (whole pixels, within MIN_WIDTH and MAX_WIDTH). */
export function resizeColumn(widths: ColumnWidths, column: ColumnKind, width: number): ColumnWidths {
  const w = Number.isFinite(width) ? Math.round(width) : widths[column];
  return { ...widths, [column]: Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, w)) };
}

/** The member's own columns together: where the group columns start. */
export function leftWidth(w: ColumnWidths): number {
  return w.who + w.last + w.state + w.perm + w.signin;
}

/** Widths the page kept, each checked; one missing or out of range is its default. */
export function widthsOf(kept: unknown): ColumnWidths {
  const out: Record<ColumnKind, number> = { ...DEFAULT_WIDTHS };
  if (typeof kept !== 'object' || kept === null) return out;
  for (const k of COLUMN_KINDS) {
    const v = (kept as Record<string, unknown>)[k];
    if (typeof v === 'number' && Number.isInteger(v) && v >= MIN_WIDTH && v <= MAX_WIDTH) out[k] = v;
  }
  return out;
}

const width = optional(int({ min: MIN_WIDTH, max: MAX_WIDTH }));
/** The widths in the page's kept state, as the host checks them. */
export const checkWidths = object({ who: width, last: width, state: width, perm: width, signin: width, group: width });
