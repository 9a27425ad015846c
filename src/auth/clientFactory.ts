import * as vscode from 'vscode';
import { PortalClient, type RequestLogLine } from '../api';
import type { PortalEntry } from './portalEntry';
import type { ClientFactory } from './portalRegistry';

/** The proxy VS Code would use: its http.proxy setting first, then the usual environment variables. */
export function proxyFromEnvironment(): { url: string; strictSSL: boolean; noProxy: string[] } | undefined {
  const http = vscode.workspace.getConfiguration('http');
  const url = http.get<string>('proxy') || process.env.HTTPS_PROXY || process.env.https_proxy || process.env.HTTP_PROXY || process.env.http_proxy;
  if (!url) return undefined;
  const noProxy = (process.env.NO_PROXY ?? process.env.no_proxy ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  return { url, strictSSL: http.get<boolean>('proxyStrictSSL', true), noProxy };
}

export function formatRequestLine(line: RequestLogLine): string {
  const outcome = line.status !== undefined ? String(line.status) : (line.error ?? 'failed');
  const attempt = line.attempt > 1 ? ` (attempt ${line.attempt})` : '';
  return `${line.method} ${line.path} ${outcome} ${Math.round(line.ms)} ms${attempt}`;
}

/** Builds each portal's client from the user's settings; the client never sees VS Code itself. */
export function createClientFactory(log: vscode.LogOutputChannel, version: string, onRequest: () => void): ClientFactory {
  return (entry: PortalEntry, onSignedOut) => {
    const config = vscode.workspace.getConfiguration('portal');
    const proxy = proxyFromEnvironment();
    return new PortalClient({
      baseUrl: entry.baseUrl,
      service: entry.service,
      userAgent: `portal-vscode/${version} (VS Code ${vscode.version})`,
      requestBudget: {
        count: config.get<number>('requestBudget.count', 2000),
        windowMs: config.get<number>('requestBudget.windowSeconds', 300) * 1000,
      },
      maxConcurrent: config.get<number>('maxConcurrentRequests', 8),
      bodyTimeoutMs: config.get<number>('requestTimeoutSeconds', 30) * 1000,
      ...(proxy ? { proxy } : {}),
      log: (line) => {
        const text = formatRequestLine(line);
        if (line.status !== undefined && line.status < 400) log.info(text);
        else log.warn(text);
        onRequest();
      },
      onSignedOut,
    });
  };
}
