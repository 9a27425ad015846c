/** Small HTTP helpers shared by the client: query strings, Retry-After, error bodies, Content-Disposition. */
import type { Dispatcher } from 'undici';
import { PortalError, type FieldError, type PortalErrorKind } from './errors';
import { asObject, objArray, str, strOrNull } from './models/read';

type IncomingHttpHeaders = Dispatcher.ResponseData['headers'];

export type QueryValue = string | number | boolean | null | undefined | readonly (string | number)[];
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

/** Encodes one path segment (ids, usernames, client ids). */
export function seg(value: string | number): string {
  return encodeURIComponent(String(value));
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

export interface ErrorBody {
  error?: string;
  message?: string;
  fieldErrors?: FieldError[];
  /** OAuth error_description. */
  description?: string;
}

/** The error body, if it is JSON shaped like {error, message, fieldErrors} or an OAuth error. */
export function parseErrorBody(text: string): ErrorBody | undefined {
  if (!text) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  const o = asObject(json);
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

export function describeContentType(headers: IncomingHttpHeaders): string {
  return (header(headers, 'content-type') ?? 'no content type').split(';')[0]?.trim() || 'no content type';
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
    message: `The server at ${host} did not answer like a portal API (${detail}). Check that the URL points at the portal's API.`,
  });
}

/** Maps a non-2xx answer of an API call to a PortalError. */
export function httpError(input: {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  endpoint: string;
  host: string;
  retryAfterMs?: number | undefined;
}): PortalError {
  const { status, headers, text, endpoint, host } = input;
  if (status >= 300 && status < 400) {
    const location = header(headers, 'location');
    let where = 'another address';
    if (location) {
      try {
        const u = new URL(location, `http://${host}`);
        where = u.host === host ? `${u.pathname}` : u.origin;
      } catch {
        where = 'an invalid address';
      }
    }
    return notAnApi(host, endpoint, `it redirected (HTTP ${status}) to ${where}; redirects are not followed`, status);
  }
  const body = parseErrorBody(text);
  if (!body && status >= 400 && status < 500 && status !== 429) {
    return notAnApi(host, endpoint, `HTTP ${status} with ${describeContentType(headers)}, expected JSON`, status);
  }
  const serverMessage = body?.message ?? body?.description;
  const fieldErrors = body?.fieldErrors;
  const said = serverMessage ? `: ${serverMessage}` : '';
  let kind: PortalErrorKind;
  let message: string;
  switch (true) {
    case status === 400 || status === 422: {
      kind = 'invalid-input';
      const fields = fieldErrors?.length ? ` (${fieldErrors.map((f) => `${f.field}: ${f.message}`).join('; ')})` : '';
      message = `The portal rejected the request${said}${fields}.`;
      break;
    }
    case status === 401:
      kind = 'auth';
      message = `The portal did not accept the credentials${said}.`;
      break;
    case status === 403:
      kind = 'forbidden';
      message = `You do not have permission to do this${said}. An administrator of the organisation can grant it.`;
      break;
    case status === 404:
      kind = 'not-found';
      message = `Not found${said}. It may have been deleted, or you may not have access to it.`;
      break;
    case status === 409:
      kind = 'conflict';
      message = `This conflicts with the current state on the portal${said}. It may already exist or have changed; refresh and try again.`;
      break;
    case status === 413:
      kind = 'invalid-input';
      message = `The request is too large for the portal${said}.`;
      break;
    case status === 429: {
      kind = 'rate-limited';
      const wait = input.retryAfterMs !== undefined ? ` Try again in ${Math.max(1, Math.ceil(input.retryAfterMs / 1000))} s.` : ' Try again in a few minutes.';
      message = `The portal is limiting requests (too many in a short time).${wait}`;
      break;
    }
    case status >= 500:
      kind = 'server';
      message = `The portal had a problem answering (HTTP ${status})${said}. Try again later.`;
      break;
    default:
      kind = 'invalid-input';
      message = `The portal refused the request (HTTP ${status})${said}.`;
  }
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

const TWO_FACTOR_REQUIRED = new Set(['missing_2fa', 'missing_2fa_sms', 'missing_2fa_email', 'missing_2fa_authenticator']);
const TWO_FACTOR_INVALID = new Set(['invalid_2fa', 'error_2fa_sms', 'error_2fa']);

/** Maps a non-2xx answer of /oauth/token; undefined means "use the generic mapping" (429, 5xx, non-JSON). */
export function tokenError(input: { status: number; text: string; endpoint: string; host: string }): PortalError | undefined {
  const { status, text, endpoint, host } = input;
  if (status === 429 || status >= 500) return undefined;
  const body = parseErrorBody(text);
  if (!body?.error) return undefined;
  const error = body.error;
  const serverMessage = body.description ?? body.message;
  const base = { endpoint, status, code: error, ...(serverMessage !== undefined ? { serverMessage } : {}) };
  if (TWO_FACTOR_REQUIRED.has(error) || error.startsWith('missing_2fa')) {
    return new PortalError({ ...base, kind: 'two-factor-required', message: 'This account needs a two-factor code. Enter the code from your authenticator app, text message or e-mail.' });
  }
  if (TWO_FACTOR_INVALID.has(error) || /2fa/.test(error)) {
    return new PortalError({ ...base, kind: 'two-factor-invalid', message: 'The two-factor code was not accepted. Check it and try again (codes expire quickly).' });
  }
  if (error === 'invalid_grant') {
    const d = (serverMessage ?? '').toLowerCase();
    const why = d.includes('disabled')
      ? 'this user is disabled'
      : d.includes('locked')
        ? 'this user account is locked'
        : d.includes('bad credentials') || d === ''
          ? 'the user name or password is wrong'
          : serverMessage ?? '';
    return new PortalError({ ...base, kind: 'auth', message: `Sign-in to ${host} failed: ${why}.` });
  }
  if (error === 'invalid_client' || error === 'unauthorized_client') {
    return new PortalError({ ...base, kind: 'auth', message: `${host} did not accept the application's client id or secret; the application may have been deleted or revoked.` });
  }
  if (error === 'invalid_token') {
    return new PortalError({ ...base, kind: 'auth', message: `${host} did not accept the saved session (the refresh token was rejected).` });
  }
  return new PortalError({ ...base, kind: 'auth', message: `Sign-in to ${host} failed (${error}${serverMessage ? `: ${serverMessage}` : ''}).` });
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
