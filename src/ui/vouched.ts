/**
 * What this extension hands VS Code as a command argument (its tree rows) carries a private brand. A command
 * works only on branded objects: a `command:` link, a keybinding's `args` or another extension can pass plain data,
 * a JSON or spread copy, even an object made from our prototype, but none of them carries the brand.
 */
import type { Ref } from '../shared/refs';

export abstract class Vouched {
  readonly #vouched = true;

  /** What a command run on this object works on; undefined for rows that name nothing ("Load more", ranges). */
  abstract readonly ref: Ref | undefined;

  static is(value: unknown): value is Vouched {
    return typeof value === 'object' && value !== null && #vouched in value;
  }
}
