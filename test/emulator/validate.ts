// Reads a JSON request body field by field, collecting every problem before answering, so the
// caller sees all field errors at once and nothing is written when any of them fails.
import { badRequest, type FieldError } from './http';
import { RESERVED_NAMES } from './model';

interface StringRules {
  required?: boolean;
  max?: number;
  nonEmpty?: boolean;
  pattern?: RegExp;
  patternMessage?: string;
}

export class BodyReader {
  readonly errors: FieldError[];

  constructor(
    private readonly body: Record<string, unknown>,
    private readonly prefix = '',
    errors?: FieldError[],
  ) {
    this.errors = errors ?? [];
  }

  has(name: string): boolean {
    return this.body[name] !== undefined;
  }

  fail(name: string, message: string): undefined {
    this.errors.push({ field: this.prefix + name, message });
    return undefined;
  }

  string(name: string, rules: StringRules = {}): string | undefined {
    const v = this.body[name];
    if (v === undefined || v === null) return rules.required ? this.fail(name, 'is required') : undefined;
    if (typeof v !== 'string') return this.fail(name, 'must be a string');
    const nonEmpty = rules.nonEmpty ?? rules.required;
    if (nonEmpty && v.trim() === '') return this.fail(name, 'must not be blank');
    if (v.length > (rules.max ?? 10_000)) return this.fail(name, `must be at most ${rules.max ?? 10_000} characters`);
    if (rules.pattern && !rules.pattern.test(v))
      return this.fail(name, rules.patternMessage ?? 'has an invalid format');
    return v;
  }

  /** A string field that may be sent as null to clear it: undefined = not sent. */
  nullableString(name: string, max = 10_000): string | null | undefined {
    if (this.body[name] === null) return null;
    return this.string(name, { max });
  }

  boolean(name: string): boolean | undefined {
    const v = this.body[name];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'boolean') return this.fail(name, 'must be true or false');
    return v;
  }

  number(
    name: string,
    rules: { required?: boolean; integer?: boolean; min?: number; max?: number } = {},
  ): number | undefined {
    const v = this.body[name];
    if (v === undefined || v === null) return rules.required ? this.fail(name, 'is required') : undefined;
    if (typeof v !== 'number' || !Number.isFinite(v)) return this.fail(name, 'must be a number');
    if ((rules.integer ?? true) && !Number.isInteger(v)) return this.fail(name, 'must be a whole number');
    if (rules.min !== undefined && v < rules.min) return this.fail(name, `must be at least ${rules.min}`);
    if (rules.max !== undefined && v > rules.max) return this.fail(name, `must be at most ${rules.max}`);
    return v;
  }

  oneOf<T extends string | number>(name: string, values: readonly T[], required = false): T | undefined {
    const v = this.body[name];
    if (v === undefined || v === null) return required ? this.fail(name, 'is required') : undefined;
    const found = values.find((x) => x === v);
    if (found === undefined) return this.fail(name, `must be one of ${values.join(', ')}`);
    return found;
  }

  stringArray(name: string, maxItems = 1000): string[] | undefined {
    const v = this.body[name];
    if (v === undefined || v === null) return undefined;
    if (!Array.isArray(v) || v.length > maxItems || !v.every((x): x is string => typeof x === 'string')) {
      return this.fail(name, `must be an array of strings (at most ${maxItems})`);
    }
    return v;
  }

  numberArray(name: string): number[] | undefined {
    const v = this.body[name];
    if (v === undefined || v === null) return undefined;
    if (!Array.isArray(v) || !v.every((x): x is number => typeof x === 'number' && Number.isInteger(x))) {
      return this.fail(name, 'must be an array of whole numbers');
    }
    return v;
  }

  /** An object of key -> whole number (group maps). */
  numberMap(name: string): Map<string, number> | undefined {
    const v = this.body[name];
    if (v === undefined || v === null) return undefined;
    if (!isPlainObject(v)) return this.fail(name, 'must be an object');
    const out = new Map<string, number>();
    for (const [k, x] of Object.entries(v)) {
      if (typeof x !== 'number' || !Number.isInteger(x)) {
        this.fail(`${name}.${k}`, 'must be a whole number');
        continue;
      }
      out.set(k, x);
    }
    return out;
  }

  object(name: string): BodyReader | undefined {
    const v = this.body[name];
    if (v === undefined || v === null) return undefined;
    if (!isPlainObject(v)) return this.fail(name, 'must be an object');
    return new BodyReader(v, `${this.prefix}${name}.`, this.errors);
  }

  /** Throws one 400 carrying every collected field error. */
  done(): void {
    if (this.errors.length > 0) {
      const first = this.errors[0];
      const summary = first ? `${first.field} ${first.message}` : 'invalid input';
      throw badRequest(
        `Invalid request: ${summary}${this.errors.length > 1 ? ` (and ${this.errors.length - 1} more)` : ''}`,
        this.errors,
      );
    }
  }
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function isReserved(name: string): boolean {
  return (RESERVED_NAMES as readonly string[]).includes(name.trim().toLowerCase());
}

export const USERNAME = /^[A-Za-z0-9][A-Za-z0-9._@-]{1,63}$/;
export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const SLUG = /^[a-z0-9][a-z0-9-]{1,62}$/;
export const LOCALE = /^[a-z]{2}([_-][A-Za-z]{2})?$/;
export const PERMISSIONS = [1, 4, 16] as const;
