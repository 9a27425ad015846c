import * as vscode from 'vscode';
import { PortalClient, resolveProxy, type RequestLogLine } from '../api';
import type { PortalEntry } from './portalEntry';
import type { ClientFactory } from './portalRegistry';

export function formatRequestLine(line: RequestLogLine): string {
  const outcome = line.status !== undefined ? String(line.status) : (line.error ?? 'failed');
  const attempt = line.attempt > 1 ? ` (attempt ${line.attempt})` : '';
  return `${line.method} ${line.path} ${outcome} ${Math.round(line.ms)} ms${attempt}`;
}

/** Builds each portal's client from the user's settings; the client never sees VS Code itself. */
export function createClientFactory(log: vscode.LogOutputChannel, version: string, onRequest: () => void): ClientFactory {
  return (entry: PortalEntry, onSignedOut) => {
    const config = vscode.workspace.getConfiguration('portal');
    const http = vscode.workspace.getConfiguration('http');
    // VS Code's own proxy settings first, then the usual environment variables (resolved in src/api).
    const proxy = resolveProxy({
      baseUrl: entry.baseUrl,
      httpProxy: http.get<string>('proxy'),
      strictSSL: http.get<boolean>('proxyStrictSSL', true),
      env: process.env,
    });
    return new PortalClient({
      baseUrl: entry.baseUrl,
      service: entry.service,
      userAgent: `portal-vscode/${version} (VS Code ${vscode.version})`,
      requestBudget: {
        count: config.get<number>('requestBudget.count', 2000),
        windowMs: config.get<number>('requestBudget.windowSeconds', 300) * 1000,
      },
      maxConcurrent: config.get<number>('maxConcurrentRequests', 8),
      // One setting for the user: how long a portal may take to answer, first byte or next byte.
      headersTimeoutMs: config.get<number>('requestTimeoutSeconds', 30) * 1000,
      bodyTimeoutMs: config.get<number>('requestTimeoutSeconds', 30) * 1000,
      strictSSL: http.get<boolean>('proxyStrictSSL', true),
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
