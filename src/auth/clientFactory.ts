import * as vscode from 'vscode';
import { PortalClient, resolveProxy, type RequestLogLine } from '../api';
import type { PortalEntry } from './portalEntry';
import type { ClientFactory } from './portalRegistry';
import { networkSettings, setting } from './settings';

export function formatRequestLine(line: RequestLogLine): string {
  const outcome = line.status !== undefined ? String(line.status) : (line.error ?? 'failed');
  const attempt = line.attempt > 1 ? ` (attempt ${line.attempt})` : '';
  return `${line.method} ${line.path} ${outcome} ${Math.round(line.ms)} ms${attempt}`;
}

/** Builds each portal's client from the user's settings; the client never sees VS Code itself. */
export function createClientFactory(
  log: vscode.LogOutputChannel,
  version: string,
  onRequest: () => void,
): ClientFactory {
  return (entry: PortalEntry, onSignedOut, start) => {
    const network = networkSettings();
    // VS Code's own proxy settings first, then the usual environment variables (resolved in src/api).
    const proxy = resolveProxy({
      baseUrl: entry.baseUrl,
      httpProxy: network.proxy,
      strictSSL: network.proxyStrictSSL,
      noProxy: network.noProxy,
      env: process.env,
    });
    // One setting for the user: how long a portal may take to answer, first byte or next byte.
    const timeoutMs = setting('requestTimeoutSeconds') * 1000;
    return new PortalClient({
      baseUrl: entry.baseUrl,
      service: entry.service,
      userAgent: `portal-vscode/${version} (VS Code ${vscode.version})`,
      requestBudget: { count: setting('requestBudget.count'), windowMs: setting('requestBudget.windowSeconds') * 1000 },
      maxConcurrent: setting('maxConcurrentRequests'),
      headersTimeoutMs: timeoutMs,
      bodyTimeoutMs: timeoutMs,
      // http.proxyStrictSSL went into `proxy`: it concerns the proxy hop, never the portal's own certificate.
      ...(proxy ? { proxy } : {}),
      log: (line) => {
        const text = formatRequestLine(line);
        if (line.status !== undefined && line.status < 400) log.info(text);
        else log.warn(text);
        onRequest();
      },
      onSignedOut,
      ...(start ? { credentials: start.credentials } : {}),
      ...(start?.tokens ? { initialTokens: start.tokens } : {}),
    });
  };
}
