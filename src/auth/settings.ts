/**
 * Every setting the extension reads, and only the user's own value of each. A cloned repository's
 * `.vscode/settings.json` is written by a stranger: were its values read, it could point a known portal at
 * another host (and our stored secret with it), route requests through its proxy, or set limits that break
 * every portal. The manifest declares these settings `application`-scoped, so VS Code does not apply workspace
 * values either; reading `globalValue` keeps that true even where a host ignores the scope.
 * Numbers are clamped to their documented bounds, so a hand-edited value cannot stop the extension either.
 */
import * as vscode from 'vscode';

/** The user's value of `section.key`, else the default; workspace and folder values never count. */
export function userValue<T>(section: string, key: string): T | undefined {
  const inspected = vscode.workspace.getConfiguration(section).inspect<T>(key);
  return inspected?.globalValue ?? inspected?.defaultValue;
}

function bounded(key: string, fallback: number, min: number, max: number): number {
  const raw = userValue<unknown>('portal', key);
  const n = typeof raw === 'number' && Number.isFinite(raw) ? raw : fallback;
  return Math.min(max, Math.max(min, Math.floor(n)));
}

/** The bounds the manifest states too; kept in one place so the two cannot drift far. */
const SETTING_BOUNDS = {
  'requestBudget.count': { fallback: 2000, min: 10, max: 100_000 },
  'requestBudget.windowSeconds': { fallback: 300, min: 1, max: 3600 },
  maxConcurrentRequests: { fallback: 8, min: 1, max: 32 },
  pageSize: { fallback: 50, min: 1, max: 100 },
  requestTimeoutSeconds: { fallback: 30, min: 5, max: 300 },
  cacheSeconds: { fallback: 30, min: 0, max: 3600 },
  'accessMatrix.maxAgeHours': { fallback: 24, min: 1, max: 720 },
} as const;

type BoundedSetting = keyof typeof SETTING_BOUNDS;

export function setting(key: BoundedSetting): number {
  const b = SETTING_BOUNDS[key];
  return bounded(key, b.fallback, b.min, b.max);
}

/** VS Code's own network settings, as the user set them. */
interface NetworkSettings {
  readonly proxy: string | undefined;
  readonly proxyStrictSSL: boolean;
  readonly noProxy: readonly string[];
}

export function networkSettings(): NetworkSettings {
  const proxy = userValue<unknown>('http', 'proxy');
  const strict = userValue<unknown>('http', 'proxyStrictSSL');
  const noProxy = userValue<unknown>('http', 'noProxy');
  return {
    proxy: typeof proxy === 'string' && proxy.trim() ? proxy.trim() : undefined,
    proxyStrictSSL: strict !== false,
    noProxy: Array.isArray(noProxy) ? noProxy.filter((x): x is string => typeof x === 'string') : [],
  };
}
