/** Small HTTP helpers shared by the client: query strings, Retry-After, error bodies, Content-Disposition. */
import * as l10n from '@vscode/l10n';
import type { Dispatcher } from 'undici';
import { PortalError, quoteServerText, type FieldError, type PortalErrorKind } from './errors';
import { asObject, jsonOrUndefined, objArray, str, strOrNull } from './models/read';

type IncomingHttpHeaders = Dispatcher.ResponseData['headers'];

type QueryValue = string | number | boolean | null | undefined | readonly (string | number)[];
export type QueryParams = Record<string, QueryValue>;

/** `?a=1&b=true`; undefined/null are skipped; '' gives a bare key (`?summary`); arrays are comma-joined. */
export function buildQuery(params: QueryParams | undefined): string {
  if (!params) return '';
  const parts: string[] = [];
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    const k = encodeURIComponent(key);
    if (value === '') {
      parts.push(k);
      continue;
    }
    const v = Array.isArray(value) ? value.map(String).join(',') : String(value);
    parts.push(`${k}=${encodeURIComponent(v)}`);
  }
  return parts.length ? `?${parts.join('&')}` : '';
}

/**
 * Marks a segment that must not be sent: '', '.' or '..' would name another resource than the one meant (a list
 * instead of one of its rows, or a parent), and encoding cannot make them safe, because servers and proxies decode
 * %2E back to a dot before they resolve the path. NUL never appears in encodeURIComponent's output, so the mark
 * cannot be forged by data; the client refuses any path that carries it (see `unsafePath`).
 */
const UNSAFE = '\u0000';

/** Encodes one path segment (ids, usernames, client ids) taken from server data or user input. */
export function seg(value: string | number): string {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value);
  const s = encodeURIComponent(String(value));
  return s === '' || s === '.' || s === '..' ? `${UNSAFE}${s}` : s;
}

/** True when an API path has a segment seg() marked unsafe. One scan: this runs on every request. */
export function unsafePath(path: string): boolean {
  return path.includes(UNSAFE);
}

export function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name.toLowerCase()];
  if (Array.isArray(v)) return v[0];
  return v;
}

/** Retry-After as milliseconds: delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  const date = Date.parse(v);
  if (Number.isFinite(date)) return Math.max(0, date - now);
  return undefined;
}

interface ErrorBody {
  error?: string;
  message?: string;
  fieldErrors?: FieldError[];
  /** OAuth error_description. */
  description?: string;
}

/** The error body, if it is JSON shaped like {error, message, fieldErrors} or an OAuth error. */
function parseErrorBody(text: string): ErrorBody | undefined {
  const o = asObject(jsonOrUndefined(text));
  if (!o) return undefined;
  const out: ErrorBody = {};
  const error = strOrNull(o, 'error');
  if (error) out.error = error;
  const message = strOrNull(o, 'message');
  if (message) out.message = message;
  const description = strOrNull(o, 'error_description');
  if (description) out.description = description;
  const fields = objArray(o, 'fieldErrors').map((f) => ({ field: str(f, 'field'), message: str(f, 'message') }));
  if (fields.length) out.fieldErrors = fields;
  return out;
}

/** A Map, not an object literal: a page's `&constructor;` must not find Object.prototype's members. */
const ENTITIES = new Map([
  ['amp', '&'],
  ['lt', '<'],
  ['gt', '>'],
  ['quot', '"'],
  ['apos', "'"],
  ['nbsp', ' '],
]);

/** The text of an HTML page's <title>, entities decoded; undefined when it has none. */
function htmlTitle(text: string): string | undefined {
  const m = /<title[^>]*>([\s\S]{0,2000}?)<\/title>/i.exec(text);
  if (!m?.[1]) return undefined;
  return m[1].replace(/<[^>]*>/g, ' ').replace(/&(#\d{1,6}|#x[\da-f]{1,6}|[a-z]+);/gi, (all, e: string) => {
    if (e[0] !== '#') return ENTITIES.get(e.toLowerCase()) ?? all;
    const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1));
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : all;
  });
}

/**
 * What a portal said in an error body that is not JSON (the spec leaves error bodies open): the title of an HTML
 * page, or plain text, as one quotable line. Never the markup itself.
 */
export function plainServerText(text: string, headers: IncomingHttpHeaders): string | undefined {
  const isHtml =
    /html/i.test(header(headers, 'content-type') ?? '') || /^\s*<(!doctype|html|head|body|title)/i.test(text);
  const said = quoteServerText(isHtml ? (htmlTitle(text) ?? '') : text);
  return said || undefined;
}

export function describeContentType(headers: IncomingHttpHeaders): string {
  return header(headers, 'content-type')?.split(';')[0]?.trim() || l10n.t('no content type');
}

export function looksLikeJson(headers: IncomingHttpHeaders): boolean {
  return /json/i.test(header(headers, 'content-type') ?? '');
}

/** "The server at X did not answer like a portal API" — how "not an API at that URL" shows. */
export function notAnApi(host: string, endpoint: string, detail: string, status?: number): PortalError {
  return new PortalError({
    kind: 'invalid-response',
    endpoint,
    ...(status !== undefined ? { status } : {}),
    message: l10n.t(
      "The server at {0} did not answer like a portal API ({1}). Check that the URL points at the portal's API.",
      host,
      detail,
    ),
  });
}

function redirectError(status: number, headers: IncomingHttpHeaders, endpoint: string, host: string): PortalError {
  const location = header(headers, 'location');
  let where = l10n.t('another address');
  if (location) {
    try {
      const u = new URL(location, `http://${host}`);
      where = u.host === host ? `${u.pathname}` : u.origin;
    } catch {
      where = l10n.t('an invalid address');
    }
  }
  return notAnApi(
    host,
    endpoint,
    l10n.t('it redirected (HTTP {0}) to {1}; redirects are not followed', status, where),
    status,
  );
}

/** A rejected request, naming each field the portal complained about. */
function rejectedInput(
  said: string,
  fieldErrors: FieldError[] | undefined,
): { kind: PortalErrorKind; message: string } {
  const fields = fieldErrors?.length
    ? ` (${fieldErrors.map((f) => `${quoteServerText(f.field, 60)}: ${quoteServerText(f.message, 120)}`).join('; ')})`
    : '';
  return {
    kind: 'invalid-input',
    message: quoteServerText(l10n.t('The portal rejected the request{0}{1}', said, fields), 1000) + '.',
  };
}

/** Rate limited: says when to try again, from Retry-After when the portal sent it. */
function rateLimited(retryAfterMs: number | undefined): { kind: PortalErrorKind; message: string } {
  const wait =
    retryAfterMs !== undefined
      ? l10n.t('Try again in {0} s.', Math.max(1, Math.ceil(retryAfterMs / 1000)))
      : l10n.t('Try again in a few minutes.');
  return {
    kind: 'rate-limited',
    message: l10n.t('The portal is limiting requests (too many in a short time). {0}', wait),
  };
}

/** Kind and message for a status, with what the portal said (already quoted) after a colon. */
function describeStatus(
  status: number,
  said: string,
  fieldErrors: FieldError[] | undefined,
  retryAfterMs: number | undefined,
): { kind: PortalErrorKind; message: string } {
  switch (true) {
    case status === 400 || status === 422:
      return rejectedInput(said, fieldErrors);
    case status === 401:
      return { kind: 'auth', message: l10n.t('The portal did not accept the credentials{0}.', said) };
    case status === 403:
      return {
        kind: 'forbidden',
        message: l10n.t(
          'You do not have permission to do this{0}. A Super administrator of the organisation can grant it.',
          said,
        ),
      };
    case status === 404 || status === 410:
      return {
        kind: 'not-found',
        message: l10n.t('Not found{0}. It may have been deleted, or you may not have access to it.', said),
      };
    // A portal that keeps to the spec may simply not offer a read the client tried (405/501): the caller treats it
    // like a missing resource and shows what it could read.
    case status === 405 || status === 501:
      return {
        kind: 'not-found',
        message: l10n.t('The portal does not offer this request (HTTP {0}){1}.', status, said),
      };
    case status === 409:
      return {
        kind: 'conflict',
        message: l10n.t(
          'This conflicts with the current state on the portal{0}. It may already exist or have changed; refresh and try again.',
          said,
        ),
      };
    case status === 413:
      return { kind: 'invalid-input', message: l10n.t('The request is too large for the portal{0}.', said) };
    case status === 429:
      return rateLimited(retryAfterMs);
    case status >= 500:
      return {
        kind: 'server',
        message: l10n.t('The portal had a problem answering (HTTP {0}){1}. Try again later.', status, said),
      };
    default:
      return { kind: 'invalid-input', message: l10n.t('The portal refused the request (HTTP {0}){1}.', status, said) };
  }
}

/**
 * Maps a non-2xx answer of an API call to a PortalError. The body may be the JSON the emulator sends, or anything
 * the spec leaves open (empty, plain text, an HTML error page): the status decides the kind either way, and the
 * portal's words go into `serverMessage` and, quoted and shortened, into `message`.
 */
export function httpError(input: {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  endpoint: string;
  host: string;
  retryAfterMs?: number | undefined;
}): PortalError {
  const { status, headers, text, endpoint, host } = input;
  if (status >= 300 && status < 400) return redirectError(status, headers, endpoint, host);
  const body = parseErrorBody(text);
  const serverMessage = body ? (body.message ?? body.description) : plainServerText(text, headers);
  const fieldErrors = body?.fieldErrors;
  const said = serverMessage ? `: ${quoteServerText(serverMessage)}` : '';
  const { kind, message } = describeStatus(status, said, fieldErrors, input.retryAfterMs);
  return new PortalError({
    kind,
    endpoint,
    status,
    message,
    ...(serverMessage !== undefined ? { serverMessage } : {}),
    ...(fieldErrors !== undefined ? { fieldErrors } : {}),
    ...(body?.error !== undefined ? { code: body.error } : {}),
    ...(input.retryAfterMs !== undefined ? { retryAfterMs: input.retryAfterMs } : {}),
  });
}

const TWO_FACTOR_REQUIRED = new Set([
  'missing_2fa',
  'missing_2fa_sms',
  'missing_2fa_email',
  'missing_2fa_authenticator',
]);
const TWO_FACTOR_INVALID = new Set(['invalid_2fa', 'error_2fa_sms', 'error_2fa']);

/**
 * Maps a non-2xx answer of /oauth/token; undefined means "use the generic mapping" (3xx, 429, 5xx). A 4xx without an
 * OAuth `error` says the address does not lead to the portal's token endpoint: "not a portal API", with the status
 * kept (the client's fallback from POST to GET looks at it).
 */
export function tokenError(input: {
  status: number;
  text: string;
  endpoint: string;
  host: string;
  headers: IncomingHttpHeaders;
}): PortalError | undefined {
  const { status, text, endpoint, host } = input;
  if (status < 400 || status === 429 || status >= 500) return undefined;
  const body = parseErrorBody(text);
  if (!body?.error) {
    const what = body ? l10n.t('JSON without an OAuth error') : describeContentType(input.headers);
    return notAnApi(host, endpoint, l10n.t('the token endpoint answered HTTP {0} with {1}', status, what), status);
  }
  const error = body.error;
  const serverMessage = body.description ?? body.message;
  const base = { endpoint, status, code: error, ...(serverMessage !== undefined ? { serverMessage } : {}) };
  return new PortalError({ ...base, ...describeOAuthError(error, serverMessage, host) });
}

/** Why a sign-in with user name and password failed, from the portal's description of `invalid_grant`. */
function invalidGrantReason(serverMessage: string | undefined): string {
  const d = (serverMessage ?? '').toLowerCase();
  return d.includes('disabled')
    ? l10n.t('this user is disabled')
    : d.includes('locked')
      ? l10n.t('this user account is locked')
      : d.includes('bad credentials') || d === ''
        ? l10n.t('the user name or password is wrong')
        : quoteServerText(serverMessage ?? '');
}

/** Kind and message for an OAuth `error` code from the token endpoint. */
function describeOAuthError(
  error: string,
  serverMessage: string | undefined,
  host: string,
): { kind: PortalErrorKind; message: string } {
  if (TWO_FACTOR_REQUIRED.has(error) || error.startsWith('missing_2fa')) {
    return {
      kind: 'two-factor-required',
      message: l10n.t(
        'This account needs a two-factor code. Enter the code from your authenticator app, text message or e-mail.',
      ),
    };
  }
  if (TWO_FACTOR_INVALID.has(error) || /2fa/.test(error)) {
    return {
      kind: 'two-factor-invalid',
      message: l10n.t('The two-factor code was not accepted. Check it and try again (codes expire quickly).'),
    };
  }
  if (error === 'invalid_grant') {
    return { kind: 'auth', message: l10n.t('Sign-in to {0} failed: {1}.', host, invalidGrantReason(serverMessage)) };
  }
  if (error === 'invalid_client' || error === 'unauthorized_client') {
    return {
      kind: 'auth',
      message: l10n.t(
        "{0} did not accept the application's client id or secret; the application may have been deleted or revoked.",
        host,
      ),
    };
  }
  if (error === 'invalid_token') {
    return {
      kind: 'auth',
      message: l10n.t('{0} did not accept the saved session (the refresh token was rejected).', host),
    };
  }
  const said = quoteServerText(`${error}${serverMessage ? `: ${serverMessage}` : ''}`);
  return { kind: 'auth', message: l10n.t('Sign-in to {0} failed ({1}).', host, said) };
}

/** filename from Content-Disposition (RFC 6266: filename* wins over filename). */
export function parseContentDisposition(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const star = /filename\*\s*=\s*([^;]+)/i.exec(value);
  if (star?.[1]) {
    const v = star[1].trim().replace(/^"|"$/g, '');
    const m = /^([^']*)'[^']*'(.*)$/.exec(v);
    try {
      return decodeURIComponent(m ? (m[2] ?? '') : v);
    } catch {
      // fall back to filename=
    }
  }
  const plain = /filename\s*=\s*("((?:[^"\\]|\\.)*)"|[^;]+)/i.exec(value);
  if (plain) return (plain[2] !== undefined ? plain[2].replace(/\\(.)/g, '$1') : (plain[1] ?? '').trim()) || undefined;
  return undefined;
}
