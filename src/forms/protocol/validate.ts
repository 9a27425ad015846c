/**
 * Hand-written validators for messages that cross the webview boundary. A webview is a browser page that
 * renders server text, so the host treats everything it posts as untrusted input: each message is checked
 * for shape, types and lengths here before any of it reaches the API client. No dependencies, because
 * this file is bundled into both the extension host and the webviews.
 */

type Result<T> = { ok: true; value: T } | { ok: false; error: string };
export type Check<T> = (value: unknown, path: string) => Result<T>;
export type Infer<C> = C extends Check<infer T> ? T : never;

const ok = <T>(value: T): Result<T> => ({ ok: true, value });
const fail = (path: string, what: string): Result<never> => ({ ok: false, error: `${path || 'message'} ${what}` });

/** Longest string any form field accepts: the portal states no limits of its own, so this one bounds a runaway page. */
const MAX_TEXT = 10_000;

export function str(rules: { min?: number; max?: number; pattern?: RegExp } = {}): Check<string> {
  const max = rules.max ?? MAX_TEXT;
  return (v, path) => {
    if (typeof v !== 'string') return fail(path, 'must be a string');
    if (v.length < (rules.min ?? 0)) return fail(path, `must have at least ${rules.min ?? 0} characters`);
    if (v.length > max) return fail(path, `must have at most ${max} characters`);
    if (rules.pattern && !rules.pattern.test(v)) return fail(path, 'has an invalid format');
    return ok(v);
  };
}

export function int(rules: { min?: number; max?: number } = {}): Check<number> {
  return (v, path) => {
    if (typeof v !== 'number' || !Number.isSafeInteger(v)) return fail(path, 'must be a whole number');
    if (rules.min !== undefined && v < rules.min) return fail(path, `must be at least ${rules.min}`);
    if (rules.max !== undefined && v > rules.max) return fail(path, `must be at most ${rules.max}`);
    return ok(v);
  };
}

export const bool: Check<boolean> = (v, path) => (typeof v === 'boolean' ? ok(v) : fail(path, 'must be true or false'));

export function oneOf<const T extends readonly (string | number)[]>(values: T): Check<T[number]> {
  return (v, path) => {
    const found = values.find((x) => x === v);
    return found === undefined ? fail(path, `must be one of ${values.join(', ')}`) : ok(found);
  };
}

export function literal<const T extends string>(value: T): Check<T> {
  return (v, path) => (v === value ? ok(value) : fail(path, `must be "${value}"`));
}

export function arrayOf<T>(item: Check<T>, rules: { max: number }): Check<T[]> {
  return (v, path) => {
    if (!Array.isArray(v)) return fail(path, 'must be a list');
    if (v.length > rules.max) return fail(path, `must have at most ${rules.max} entries`);
    const out: T[] = [];
    for (let i = 0; i < v.length; i++) {
      const r = item(v[i], `${path}[${i}]`);
      if (!r.ok) return r;
      out.push(r.value);
    }
    return ok(out);
  };
}

/**
 * A value a second check reads: a form's `dirty` message carries the input on screen, which the host checks with
 * that form's own save check, as if it were sent to be saved.
 */
export const checkedLater: Check<unknown> = (v) => ok(v);

/** Marks a property that may be absent. */
interface Optional<T> {
  readonly optional: Check<T>;
}
export function optional<T>(check: Check<T>): Optional<T> {
  return { optional: check };
}

type Shape = Record<string, Check<unknown> | Optional<unknown>>;
type RequiredKeys<S extends Shape> = { [K in keyof S]: S[K] extends Optional<unknown> ? never : K }[keyof S];
type OptionalKeys<S extends Shape> = { [K in keyof S]: S[K] extends Optional<unknown> ? K : never }[keyof S];
type Unwrap<C> = C extends Optional<infer T> ? T : C extends Check<infer T> ? T : never;
type ObjectOf<S extends Shape> = { [K in RequiredKeys<S>]: Unwrap<S[K]> } & {
  [K in OptionalKeys<S>]?: Unwrap<S[K]>;
};

/**
 * A plain object with exactly these properties. Unknown properties are an error, not ignored: a message
 * that carries more than the protocol defines was not written by our webview code.
 */
export function object<S extends Shape>(shape: S): Check<ObjectOf<S>> {
  return (v, path) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return fail(path, 'must be an object');
    const input = v as Record<string, unknown>;
    for (const key of Object.keys(input)) {
      if (!Object.hasOwn(shape, key)) return fail(path ? `${path}.${key}` : key, 'is not expected');
    }
    const out: Record<string, unknown> = {};
    for (const [key, rule] of Object.entries(shape)) {
      const at = path ? `${path}.${key}` : key;
      const isOptional = typeof rule === 'object';
      const check = isOptional ? rule.optional : rule;
      if (!Object.hasOwn(input, key) || input[key] === undefined) {
        if (isOptional) continue;
        return fail(at, 'is missing');
      }
      const r = check(input[key], at);
      if (!r.ok) return r;
      out[key] = r.value;
    }
    return ok(out as ObjectOf<S>);
  };
}

/**
 * A message union discriminated by `type`. Each entry is the shape of the rest of the message.
 * An unknown `type` is reported as such, so the log says "unknown command" rather than a shape error.
 */
export function messages<M extends Record<string, Shape>>(
  variants: M,
): Check<{ [K in keyof M & string]: { type: K } & ObjectOf<M[K]> }[keyof M & string]> {
  const checks = new Map<string, Check<unknown>>();
  for (const [type, shape] of Object.entries(variants)) checks.set(type, object({ type: literal(type), ...shape }));
  return ((v: unknown, path: string) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return fail(path, 'must be an object');
    const type = (v as { type?: unknown }).type;
    if (typeof type !== 'string') return fail('type', 'must be a string');
    const check = checks.get(type);
    if (!check) return fail('type', `"${type.slice(0, 40)}" is not a known command`);
    return check(v, path);
  }) as Check<never>;
}
