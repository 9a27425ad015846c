/**
 * Tolerant readers for JSON coming from the portal. The spec marks many fields nullable, types some ambiguously,
 * and v2 sends blanks as null; these readers never throw: a missing or mistyped field becomes the documented
 * default (null for nullable fields, '' / 0 / false / [] otherwise). Only `requireX` throws, for identity fields.
 *
 * The model modules bind these once (`import * as read` then `const { str, … } = read`) instead of importing them
 * by name: under the CommonJS interop that tests and benchmarks load the sources through (tsx), every call of a
 * function imported by name costs two getter calls, and these run for every field of every row.
 */
import * as l10n from '@vscode/l10n';
import { ERROR_CODES, PortalError, invalidModel } from '../errors';
import { listTooLong, notAList, type ListResource, type Resource } from './resources';

export type JsonObject = Record<string, unknown>;

export function asObject(value: unknown): JsonObject | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as JsonObject) : undefined;
}

/** The value a JSON text holds; undefined when the text is not JSON (which can hold no undefined). */
export function jsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The object itself, or a PortalError 'invalid-response' naming the resource. */
export function requireObject(value: unknown, resource: Resource): JsonObject {
  const o = asObject(value);
  if (!o) throw invalidModel(resource, l10n.t('an object body'));
  return o;
}

export function strOrNull(o: JsonObject, key: string): string | null {
  const v = o[key];
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return null;
}

export function str(o: JsonObject, key: string): string {
  return strOrNull(o, key) ?? '';
}

export function numOrNull(o: JsonObject, key: string): number | null {
  const v = o[key];
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return null;
}

export function num(o: JsonObject, key: string): number {
  return numOrNull(o, key) ?? 0;
}

export function boolOrNull(o: JsonObject, key: string): boolean | null {
  const v = o[key];
  if (typeof v === 'boolean') return v;
  if (v === 'true') return true;
  if (v === 'false') return false;
  if (v === 1 || v === 0) return v === 1;
  return null;
}

export function bool(o: JsonObject, key: string): boolean {
  return boolOrNull(o, key) ?? false;
}

/** Several fields read alike (a model's run of strings, or of flags), by their keys. */
export function fields<K extends string, V>(
  o: JsonObject,
  keys: readonly K[],
  read: (o: JsonObject, key: string) => V,
): Record<K, V> {
  const out = {} as Record<K, V>;
  for (const key of keys) out[key] = read(o, key);
  return out;
}

export function strArray(o: JsonObject, key: string): string[] {
  const v = o[key];
  if (!Array.isArray(v)) return [];
  const out: string[] = [];
  for (const x of v) {
    if (typeof x === 'string') out.push(x);
    else if (typeof x === 'number') out.push(String(x));
  }
  return out;
}

export function strArrayOrNull(o: JsonObject, key: string): string[] | null {
  return Array.isArray(o[key]) ? strArray(o, key) : null;
}

export function objArray(o: JsonObject, key: string): JsonObject[] {
  const v = o[key];
  if (!Array.isArray(v)) return [];
  const out: JsonObject[] = [];
  for (const x of v) {
    const obj = asObject(x);
    if (obj) out.push(obj);
  }
  return out;
}

/**
 * Maps keyed by server text (group names, custom component names) have no prototype: a group named
 * "constructor" or "__proto__" is an ordinary key, never Object.prototype's member.
 */
function dictionary<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

/** The value for a server-named key, only when the map holds it itself. */
export function ownValue<T>(map: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return map !== undefined && Object.hasOwn(map, key) ? map[key] : undefined;
}

export function strMap(o: JsonObject, key: string): Record<string, string> {
  const v = asObject(o[key]);
  const out = dictionary<string>();
  if (!v) return out;
  for (const [k, x] of Object.entries(v)) {
    if (typeof x === 'string') out[k] = x;
    else if (typeof x === 'number' || typeof x === 'boolean') out[k] = String(x);
  }
  return out;
}

export function numMap(o: JsonObject, key: string): Record<string, number> | undefined {
  const v = asObject(o[key]);
  if (!v) return undefined;
  const out = dictionary<number>();
  for (const [k, x] of Object.entries(v)) {
    if (typeof x === 'number' && Number.isFinite(x)) out[k] = x;
    else if (typeof x === 'string' && x.trim() !== '' && Number.isFinite(Number(x))) out[k] = Number(x);
  }
  return out;
}

/** A required numeric id. */
export function requireNum(o: JsonObject, key: string, resource: Resource): number {
  const v = numOrNull(o, key);
  if (v === null) throw invalidModel(resource, l10n.t('its "{0}"', key));
  return v;
}

/** A required non-empty string identity (username, client id, name). */
export function requireStr(o: JsonObject, key: string, resource: Resource): string {
  const v = strOrNull(o, key);
  if (v === null || v === '') throw invalidModel(resource, l10n.t('its "{0}"', key));
  return v;
}

/**
 * Most rows a plain-array list may have. The spec names no paging for these lists, so a portal may send them whole;
 * this bounds what one answer can make the client parse and hold (the byte cap bounds it too).
 */
export const MAX_LIST_ROWS = 100_000;

/** Parses every element of an array body with `parse`; a non-array body, or one over MAX_LIST_ROWS, is invalid. */
export function parseArray<T>(json: unknown, list: ListResource, parse: (item: unknown) => T): T[] {
  if (!Array.isArray(json)) throw new PortalError({ kind: 'invalid-response', endpoint: '', message: notAList(list) });
  if (json.length > MAX_LIST_ROWS) {
    throw new PortalError({
      kind: 'invalid-response',
      endpoint: '',
      code: ERROR_CODES.listTooLong,
      message: listTooLong(list, json.length.toLocaleString('en-US'), MAX_LIST_ROWS.toLocaleString('en-US')),
    });
  }
  return json.map(parse);
}
