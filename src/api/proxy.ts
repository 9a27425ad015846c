/**
 * Proxy resolution: which proxy a portal's requests use, from VS Code's settings and the environment.
 *
 * The matching of NO_PROXY entries against the portal's host is undici's (`EnvHttpProxyAgent`, see
 * dispatcher.ts): this module only gathers the inputs. Loopback portals are never proxied, whatever the settings
 * say: a proxy would see cleartext http:// traffic, bearer tokens included, that was meant to stay on this computer.
 */
import { isLoopbackHost } from './url';

export interface ProxyOptions {
  /** http://[user:pass@]host:port of the proxy (https:// proxies work too). */
  url: string;
  /**
   * Verify the certificate of an https:// proxy (VS Code's http.proxyStrictSSL). Default true. The proxy hop only:
   * the portal's certificate, end to end through the tunnel, is always verified.
   */
  strictSSL?: boolean;
  /**
   * Hosts that bypass the proxy, as undici's EnvHttpProxyAgent reads them: "host", ".domain", "*.domain",
   * "host:port", or "*" for all.
   */
  noProxy?: string[];
}

export interface ProxyInput {
  baseUrl: string;
  /** VS Code's `http.proxy`; wins over the environment. */
  httpProxy?: string | undefined;
  /** VS Code's `http.proxyStrictSSL`. */
  strictSSL?: boolean | undefined;
  /** VS Code's `http.noProxy`; added to NO_PROXY from the environment. */
  noProxy?: readonly string[] | undefined;
  /** Usually `process.env`: HTTPS_PROXY, HTTP_PROXY, ALL_PROXY and NO_PROXY, in either case. */
  env?: Readonly<Record<string, string | undefined>> | undefined;
}

function pick(env: Readonly<Record<string, string | undefined>>, ...names: string[]): string | undefined {
  for (const n of names) {
    const v = env[n] ?? env[n.toLowerCase()];
    if (v && v.trim()) return v.trim();
  }
  return undefined;
}

/**
 * The proxy settings for one portal: VS Code's `http.proxy` first, then HTTPS_PROXY / HTTP_PROXY / ALL_PROXY for
 * the portal's scheme. Undefined for a direct connection (no proxy configured, or a loopback portal). NO_PROXY
 * and `http.noProxy` entries are passed on for undici to match.
 */
export function resolveProxy(input: ProxyInput): ProxyOptions | undefined {
  let target: URL;
  try {
    target = new URL(input.baseUrl);
  } catch {
    return undefined;
  }
  if (isLoopbackHost(target.hostname)) return undefined;
  const env = input.env ?? {};
  const url =
    input.httpProxy?.trim() ||
    (target.protocol === 'https:'
      ? pick(env, 'HTTPS_PROXY', 'HTTP_PROXY', 'ALL_PROXY')
      : pick(env, 'HTTP_PROXY', 'ALL_PROXY'));
  if (!url) return undefined;
  const noProxy = [...(input.noProxy ?? []), ...(pick(env, 'NO_PROXY') ?? '').split(',')]
    .map((s) => s.trim())
    .filter(Boolean);
  return {
    url: /^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url : `http://${url}`,
    strictSSL: input.strictSSL ?? true,
    noProxy,
  };
}
