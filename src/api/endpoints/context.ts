// What the endpoint modules need of the client, apart from the client itself: the client implements ApiContext and
// builds the endpoint modules, so these shapes live here for both to import without a cycle.
import type { Readable } from 'node:stream';
import type { ReadableStream as NodeWebReadableStream } from 'node:stream/web';
import type { HttpMethod } from '../dispatcher';
import type { QueryParams } from '../http';

export interface CallOptions {
  signal?: AbortSignal;
}

/** A download in progress. Read or destroy `body`: it holds one of the client's concurrent slots until it ends. */
export interface Download {
  body: Readable;
  contentType: string;
  /** From Content-Disposition, when given. */
  filename: string | undefined;
  /** From Content-Length, when given. */
  length: number | undefined;
  /** The same bytes as a web ReadableStream (consumes `body`). */
  toWeb(): NodeWebReadableStream<Uint8Array>;
}

/** A request as the endpoint modules describe it. */
export interface CallSpec {
  method: HttpMethod;
  /** API path, e.g. /v3/userinfo (the base URL's path prefix is added). */
  path: string;
  query?: QueryParams;
  /** JSON body. */
  body?: unknown;
  /**
   * A body sent as is (upload chunks): bytes held in memory, each one bounded piece of a file, or a stream made
   * afresh for each attempt (a chunk read from disk as it is sent, so a chunk in flight holds no copy of itself).
   */
  raw?: { bytes: Buffer | string | (() => Readable); contentType: string; headers?: Record<string, string> };
  signal?: AbortSignal | undefined;
}

/** What endpoint modules use (implemented by PortalClient). */
export interface ApiContext {
  readonly service: string;
  json<T>(spec: CallSpec, parse: (json: unknown) => T): Promise<T>;
  empty(spec: CallSpec): Promise<void>;
  download(spec: CallSpec): Promise<Download>;
  /** The answer's body as text, whatever its type (the upload index answers base64 text). */
  text(spec: CallSpec): Promise<string>;
  /** A secret the portal handed out (a new client secret): masked in every later log line and error. */
  keepSecret(value: string | null | undefined): void;
}
