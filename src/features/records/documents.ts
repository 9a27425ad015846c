/**
 * What each kind of portal: document shows, fetched and rendered: one loader per kind. A document of a portal
 * that is signed out (or gone) says so, instead of an editor error.
 */
import * as vscode from 'vscode';
import { isPortalError, type CustomNames, type PortalClient } from '../../api';
import type { PortalRegistry } from '../../auth/portalRegistry';
import { humanSize } from '../../shared/format';
import { accountKey, type TreeKey } from '../../shared/keys';
import { renderAccount, renderApplication, renderFileRecord, renderGroup, text } from './render';
import type { PortalTarget } from './uri';

/** The editor is for reading; larger content is for "Download…". */
export const MAX_EDITOR_BYTES = 20 * 1024 * 1024;

export interface Loaded {
  readonly bytes?: Uint8Array;
  readonly size: number;
  readonly mtime: number;
  readonly at: number;
}

interface LoadContext {
  readonly client: PortalClient;
  readonly portalLabel: string;
  readonly registry: PortalRegistry;
  readonly needBytes: boolean;
  /** The account's own names for the files component; never fails a document. */
  custom(accountId: number): Promise<CustomNames | undefined>;
}

type Loader<K extends PortalTarget['kind']> = (ctx: LoadContext, target: Extract<PortalTarget, { kind: K }>) => Promise<Loaded>;

function encode(s: string, mtime = Date.now()): Loaded {
  const bytes = new TextEncoder().encode(s);
  return { bytes, size: bytes.length, mtime, at: Date.now() };
}

const LOADERS: { readonly [K in PortalTarget['kind']]: Loader<K> } = {
  record: async (ctx, t) => {
    const [record, customNames] = await Promise.all([ctx.client.v2.files.get(t.accountId, t.groupId, t.fileId), ctx.custom(t.accountId)]);
    return encode(renderFileRecord(record, { portalLabel: ctx.portalLabel, accountId: t.accountId, groupId: t.groupId, customNames }), record.lastModified ?? Date.now());
  },
  content: async (ctx, t) => {
    const record = await ctx.client.v2.files.get(t.accountId, t.groupId, t.fileId);
    if (record.isFolder) throw vscode.FileSystemError.FileIsADirectory(record.name);
    const mtime = record.lastModified ?? Date.now();
    if (!ctx.needBytes) return { size: record.size, mtime, at: Date.now() };
    if (record.size > MAX_EDITOR_BYTES) {
      throw vscode.FileSystemError.Unavailable(vscode.l10n.t('{0} is {1}, too large for an editor. Use "Download…" instead.', record.name, humanSize(record.size)));
    }
    const bytes = await downloadBytes(ctx.client, t.groupId, t.fileId, MAX_EDITOR_BYTES);
    return { bytes, size: bytes.length, mtime, at: Date.now() };
  },
  group: async (ctx, t) => {
    const [group, customNames] = await Promise.all([ctx.client.v2.groups.get(t.accountId, t.groupId), ctx.custom(t.accountId)]);
    return encode(renderGroup(group, { portalLabel: ctx.portalLabel, accountId: t.accountId, customNames }));
  },
  account: async (ctx, t) => {
    const [account, sub, info] = await Promise.all([
      ctx.client.v3.accounts.get(t.accountId),
      ctx.client.v3.accounts.subscription(t.accountId).catch((e: unknown) => {
        if (isPortalError(e, 'forbidden')) return { forbidden: true as const };
        throw e;
      }),
      ctx.client.v3.userinfo().catch(() => undefined),
    ]);
    const permission = info?.accounts.find((a) => a.account.id === t.accountId)?.permission;
    return encode(renderAccount(account, sub, { portalLabel: ctx.portalLabel, permission }));
  },
  application: async (ctx, t) => {
    const app = await ctx.client.v3.applications.get(t.clientId);
    return encode(renderApplication(app, { portalLabel: ctx.portalLabel, current: ctx.registry.get(t.portalId)?.clientId === app.clientId }));
  },
};

export class Documents {
  /** Custom names decorate documents; kept per account for the session. */
  private readonly customNames = new Map<TreeKey, CustomNames>();

  constructor(private readonly registry: PortalRegistry) {}

  async load(target: PortalTarget, needBytes: boolean): Promise<Loaded> {
    const connection = this.registry.get(target.portalId);
    const portalLabel = connection?.entry.label ?? target.portalId;
    // Content is bytes of a file: no such text there.
    if (!connection?.client && target.kind !== 'content') return encode(renderNotSignedIn(target, portalLabel, connection !== undefined));
    const client = this.registry.client(target.portalId);
    const ctx: LoadContext = { client, portalLabel, registry: this.registry, needBytes, custom: (accountId) => this.custom(client, target.portalId, accountId) };
    return (LOADERS[target.kind] as Loader<PortalTarget['kind']>)(ctx, target);
  }

  private async custom(client: PortalClient, portalId: string, accountId: number): Promise<CustomNames | undefined> {
    const key = accountKey({ portalId, accountId });
    const known = this.customNames.get(key);
    if (known) return known;
    try {
      const names = await client.v2.accounts.custom(accountId);
      this.customNames.set(key, names);
      return names;
    } catch {
      return undefined;
    }
  }
}

/** What a document of a portal that is signed out (or no longer listed) says instead of its data. */
function notSignedInText(kind: Exclude<PortalTarget['kind'], 'content'>, portalLabel: string, known: boolean): string {
  const portal = text(portalLabel);
  switch (kind) {
    case 'record':
      return known
        ? vscode.l10n.t('This file record is on {0}, which is signed out. Sign in (Portal view → "Sign in again…") and this document loads here.', portal)
        : vscode.l10n.t('This file record is on a portal that is no longer in the Portal views ({0}). Add it again by signing in to it.', portal);
    case 'group':
      return known
        ? vscode.l10n.t('This group is on {0}, which is signed out. Sign in (Portal view → "Sign in again…") and this document loads here.', portal)
        : vscode.l10n.t('This group is on a portal that is no longer in the Portal views ({0}). Add it again by signing in to it.', portal);
    case 'account':
      return known
        ? vscode.l10n.t('This organisation is on {0}, which is signed out. Sign in (Portal view → "Sign in again…") and this document loads here.', portal)
        : vscode.l10n.t('This organisation is on a portal that is no longer in the Portal views ({0}). Add it again by signing in to it.', portal);
    case 'application':
      return known
        ? vscode.l10n.t('This application is on {0}, which is signed out. Sign in (Portal view → "Sign in again…") and this document loads here.', portal)
        : vscode.l10n.t('This application is on a portal that is no longer in the Portal views ({0}). Add it again by signing in to it.', portal);
  }
}

function renderNotSignedIn(target: Exclude<PortalTarget, { kind: 'content' }>, portalLabel: string, known: boolean): string {
  // The name in a URI ends in "(record)" and the like, which only keeps editor tabs apart.
  return [`# ${text(target.name.replace(/ \((record|group|organisation|application)\)$/, ''))}`, '', notSignedInText(target.kind, portalLabel, known), ''].join('\n');
}

/** Reads a download fully, refusing more than `limit` bytes (the server's size may be stale). */
async function downloadBytes(client: PortalClient, groupId: number, fileId: number, limit: number): Promise<Uint8Array> {
  const controller = new AbortController();
  const download = await client.v2.files.download(groupId, fileId, { signal: controller.signal });
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of download.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limit) {
        controller.abort();
        throw vscode.FileSystemError.Unavailable(vscode.l10n.t('The content is too large for an editor. Use "Download…" instead.'));
      }
      chunks.push(chunk);
    }
  } finally {
    download.body.destroy();
  }
  return new Uint8Array(Buffer.concat(chunks));
}
