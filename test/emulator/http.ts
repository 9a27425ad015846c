// What a route handler receives and returns, and the error type that becomes a JSON error body.
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { Spooled } from './blobs';
import type { User } from './model';

export interface FieldError {
  field: string;
  message: string;
}

export type ErrorCode =
  | 'invalid_input'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'payload_too_large'
  | 'rate_limited'
  | 'internal_error'
  | 'service_unavailable';

const STATUS_OF: Record<ErrorCode, number> = {
  invalid_input: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  rate_limited: 429,
  internal_error: 500,
  service_unavailable: 503,
};

export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly fieldErrors?: FieldError[],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.status = STATUS_OF[code];
  }

  body(): Record<string, unknown> {
    return this.fieldErrors?.length
      ? { error: this.code, message: this.message, fieldErrors: this.fieldErrors }
      : { error: this.code, message: this.message };
  }
}

export const badRequest = (message: string, fieldErrors?: FieldError[]): ApiError =>
  new ApiError('invalid_input', message, fieldErrors);
export const notFound = (message: string): ApiError => new ApiError('not_found', message);
export const forbidden = (message: string): ApiError => new ApiError('forbidden', message);
export const conflict = (message: string, fieldErrors?: FieldError[]): ApiError =>
  new ApiError('conflict', message, fieldErrors);

export type Reply =
  | { kind: 'json'; status: number; body: unknown; headers?: Record<string, string> }
  | { kind: 'empty'; status: number; headers?: Record<string, string> }
  | { kind: 'bytes'; status: number; bytes: Buffer; headers: Record<string, string> }
  /** Writes its own body after the headers and ends the response (faults only: never mangled). */
  | { kind: 'stream'; status: number; headers: Record<string, string>; write: (res: ServerResponse) => Promise<void> };

export const json = (body: unknown, status = 200): Reply => ({ kind: 'json', status, body });
export const empty = (status = 200): Reply => ({ kind: 'empty', status });

export interface Caller {
  user: User;
  clientId: string;
}

export interface ApiRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  params: Record<string, string>;
  headers: IncomingHttpHeaders;
  rawBody: Buffer;
  /** Parsed JSON body ({} when the body is empty); only set for routes that take a JSON body. */
  body: Record<string, unknown>;
  remoteAddress: string;
  /** Set for authenticated routes. */
  caller?: Caller;
  now: number;
  /** The body on disk, for routes that spool (uploads); the handler keeps or discards the file. */
  spooled?: Spooled;
}

export function callerOf(req: ApiRequest): Caller {
  if (!req.caller) throw new ApiError('unauthorized', 'Authentication required');
  return req.caller;
}

export function param(req: ApiRequest, name: string): string {
  const value = req.params[name];
  if (value === undefined) throw new Error(`route has no :${name}`);
  return value;
}

/** Ids are positive integers; anything else cannot name a record, so it is a 404 like an unknown id. */
export function idParam(req: ApiRequest, name: string, what: string): number {
  const raw = param(req, name);
  if (!/^[1-9]\d{0,14}$/.test(raw)) throw notFound(`${what} ${raw} not found`);
  return Number(raw);
}
