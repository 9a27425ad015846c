// The literal profile: where the default emulator takes a liberty the spec does not promise, a
// literal portal does exactly what the spec says and nothing more. Every such switch lives here,
// so the list of differences is in one place (and in the README).
import { shapedError } from './error-shapes';
import { type ApiRequest, type Reply } from './http';
import { optionalPaging, sliceOf } from './query';
import { errorReply } from './respond';
import type { ErrorShape, Profile } from './types';
import type { World } from './world';

/**
 * The spec shows no error body. A literal portal answers each status in one fixed shape, chosen to
 * cover all three open shapes and keep one JSON body: 400 keeps `{error, message, fieldErrors}` (a
 * form needs the fields). The token endpoint's OAuth JSON is not touched (a client needs its
 * `error` to ask for a two-factor code).
 */
const LITERAL_SHAPES: Readonly<Record<number, ErrorShape | 'json'>> = {
  400: 'json',
  401: 'empty',
  403: 'text',
  404: 'html',
  405: 'empty',
  409: 'text',
  413: 'html',
  429: 'text',
  500: 'empty',
  503: 'html',
};

export function literalShapeOf(status: number): ErrorShape | 'json' {
  return LITERAL_SHAPES[status] ?? 'html';
}

/** An API error (not the token endpoint's) as the profile answers it. */
export function apiErrorReply(
  profile: Profile,
  status: number,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Reply {
  const shape = profile === 'literal' ? literalShapeOf(status) : 'json';
  if (shape === 'json') return errorReply(status, body, headers);
  return shapedError(status, shape, typeof body.message === 'string' ? body.message : undefined, headers);
}

/**
 * The lists the spec gives as plain arrays. The default emulator slices them by `page`/`size` when
 * either is given; a literal portal names no such parameters and returns everything.
 */
export function plainList<T>(req: ApiRequest, w: World, items: readonly T[]): T[] {
  return w.profile === 'literal' ? [...items] : sliceOf(items, optionalPaging(req.query));
}

/**
 * The query a v2 file listing honours beyond `page` and `size`. The spec says the listing can be
 * ordered, searched and filtered but does not name the parameters, so every name the default
 * emulator reads (recursive included) is its own invention, and a literal portal ignores them.
 */
export function fileListQuery(req: ApiRequest, w: World): URLSearchParams {
  return w.profile === 'literal' ? new URLSearchParams() : req.query;
}

/** The spec leaves the unit of expires_in open: literal gives whole minutes (rounded up, at least 1). */
export function expiresIn(profile: Profile, lifetimeSeconds: number): number {
  return profile === 'literal' ? Math.max(1, Math.ceil(lifetimeSeconds / 60)) : lifetimeSeconds;
}
