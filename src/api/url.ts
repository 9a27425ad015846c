/**
 * URL policy: which portal addresses the client accepts, and the loopback rules.
 *
 * - HTTPS always, except for this computer: plain http:// is allowed for loopback addresses only, so a
 *   development portal (the emulator) needs no certificate while a real one is never spoken to in cleartext.
 * - A name under `.localhost` counts as loopback only if it really resolves there: its addresses are checked at
 *   connect time (see `loopbackOnlyLookup`), so an /etc/hosts entry or a resolver that maps `x.localhost` to
 *   another machine cannot turn "this computer" into a cleartext hop across the network.
 * - No user name or password in the URL: credentials go through sign-in, where they are redacted.
 */
import * as l10n from '@vscode/l10n';
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import { ERROR_CODES, PortalError } from './errors';

const CONFIG_ENDPOINT = 'configure';

/** Name resolution with the signature of `dns.lookup` (what `net.connect` accepts as `lookup`). */
export type LookupFunction = (
  hostname: string,
  options: LookupOptions,
  callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
) => void;

function bare(hostname: string): string {
  return hostname.toLowerCase().replace(/^\[|\]$/g, '');
}

function isLoopbackAddress(address: string): boolean {
  const h = bare(address);
  if (h === '::1' || h === '0:0:0:0:0:0:0:1') return true;
  return /^(::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/** A loopback address, `localhost`, or a name under `.localhost` (whose addresses are checked when connecting). */
export function isLoopbackHost(hostname: string): boolean {
  const h = bare(hostname);
  return h === 'localhost' || h.endsWith('.localhost') || isLoopbackAddress(h);
}

/** A loopback host given by name rather than by address: what it resolves to must be checked. */
export function isLoopbackName(hostname: string): boolean {
  return isLoopbackHost(hostname) && isIP(bare(hostname)) === 0;
}

export interface ParsedBase {
  origin: string;
  /** Base path without trailing slash ('' for the root). */
  basePath: string;
  /** host[:port] for messages. */
  host: string;
  protocol: 'http:' | 'https:';
  hostname: string;
  port: number;
}

function configError(message: string): PortalError {
  return new PortalError({ kind: 'invalid-input', endpoint: CONFIG_ENDPOINT, message });
}

/** Validates a portal URL: http(s) only, HTTPS unless loopback, no embedded credentials. */
export function parseBaseUrl(baseUrl: string): ParsedBase {
  let url: URL;
  try {
    url = new URL(baseUrl.trim());
  } catch {
    throw configError(l10n.t('"{0}" is not a valid portal URL. Use the form https://portal.example.com.', baseUrl));
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw configError(l10n.t('The portal URL must start with https:// (got {0}//).', url.protocol));
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw configError(
      l10n.t(
        'The portal URL must use https://. Plain http:// is only allowed for this computer (localhost, 127.0.0.1, ::1), not for {0}.',
        url.host,
      ),
    );
  }
  if (url.username || url.password) {
    throw configError(l10n.t('The portal URL must not contain a user name or password; sign in instead.'));
  }
  return {
    origin: url.origin,
    basePath: url.pathname.replace(/\/+$/, ''),
    host: url.host,
    protocol: url.protocol,
    hostname: bare(url.hostname),
    port: url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80,
  };
}

/** The error a connection attempt fails with when a loopback name resolved elsewhere. */
class NotLoopbackError extends Error {
  readonly code = ERROR_CODES.notLoopback;
  constructor(
    readonly hostname: string,
    readonly addresses: readonly string[],
  ) {
    super(`${hostname} resolved to ${addresses.join(', ')}, not to this computer`);
    this.name = 'NotLoopbackError';
  }
}

/**
 * Wraps a lookup so that it only ever hands back loopback addresses: any other answer fails the connection before
 * a byte is sent. Used for http:// portals named `localhost` or `*.localhost`.
 */
export function loopbackOnlyLookup(lookup: LookupFunction = dnsLookup as LookupFunction): LookupFunction {
  return (hostname, options, callback) => {
    lookup(hostname, options, (err, address, family) => {
      if (err) {
        callback(err, address, family);
        return;
      }
      const all = Array.isArray(address) ? address.map((a) => a.address) : [address];
      const foreign = all.filter((a) => !isLoopbackAddress(a));
      if (foreign.length > 0 || all.length === 0) {
        callback(new NotLoopbackError(hostname, foreign), Array.isArray(address) ? [] : '', family);
        return;
      }
      callback(null, address, family);
    });
  };
}
