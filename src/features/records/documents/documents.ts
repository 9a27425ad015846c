/**
 * What each kind of portal: document shows, fetched and rendered: one loader per kind. A document says in the
 * portal's terms what it could not show (a portal signed out, a record gone, a read refused or not offered),
 * instead of an editor error; a read the portal does not offer is made up from a list where one holds the details.
 */
import * as vscode from 'vscode';
import {
  isPortalError,
  type Account,
  type CustomNames,
  type FileRecord,
  type Group,
  type PortalClient,
  type Subscription,
} from '../../../api/index';
import type { PortalRegistry } from '../../../auth/portalRegistry';
import { humanSize, isTextContentType } from '../../../shared/format';
import { accountKey, type TreeKey } from '../../../shared/keys';
import { ContentRefused, downloadBytes, MAX_EDITOR_BYTES } from './contentBytes';
import { renderProblem, renderNotSignedIn } from './problems';
import { findRecord, sourceNotice } from './recordRead';
import { seenOf, type Seen } from './saveBack';
import { renderAccount, renderFileRecord, renderGroup, type RecordContext } from './page/render';
import type { ApplicationRenderer } from '../../contracts';
import type { PortalTarget } from './uri';

export interface Loaded {
  readonly bytes?: Uint8Array;
  readonly size: number;
  readonly mtime: number;
  readonly at: number;
  /** Content only: the record's version as the portal said it, when it was read (what a save is checked against). */
  readonly seen?: Seen;
  /** Content only: a text file whose record the portal showed, so a save can be checked and sent as a new version. */
  readonly writable?: boolean;
}

/** Renderers of the kinds of document other features own, filled in as those features register. */
export interface Renderers {
  application?: ApplicationRenderer;
}

interface LoadContext {
  readonly client: PortalClient;
  readonly renderers: Renderers;
  readonly portalLabel: string;
  readonly registry: PortalRegistry;
  readonly needBytes: boolean;
  /** The account's own names for the files component; never fails a document. */
  custom(accountId: number): Promise<CustomNames | undefined>;
}

type Loader<K extends PortalTarget['kind']> = (
  ctx: LoadContext,
  target: Extract<PortalTarget, { kind: K }>,
) => Promise<Loaded>;

function encode(s: string, mtime = Date.now()): Loaded {
  const bytes = new TextEncoder().encode(s);
  return { bytes, size: bytes.length, mtime, at: Date.now() };
}

/** The group; from the organisation's group list when the portal does not answer the single read. */
async function readGroup(client: PortalClient, accountId: number, groupId: number, notices: string[]): Promise<Group> {
  try {
    return await client.v2.groups.get(accountId, groupId);
  } catch (err) {
    if (!isPortalError(err, 'not-found')) throw err;
    const listed = (await client.v2.groups.list(accountId)).find((g) => g.id === groupId);
    if (!listed) throw err;
    notices.push(
      vscode.l10n.t("The portal did not answer the group read: this shows what the organisation's group list gives."),
    );
    return listed;
  }
}

/** The organisation; from the sign-in details (userinfo) when the portal does not answer the organisation read. */
async function readAccount(
  client: PortalClient,
  accountId: number,
  notices: string[],
): Promise<{ account: Account; permission: number | undefined }> {
  const [info, read] = await Promise.all([
    client.v3.userinfo().catch(() => undefined),
    client.v3.accounts.get(accountId).then(
      (account) => ({ account }),
      (error: unknown) => ({ error }),
    ),
  ]);
  const membership = info?.accounts.find((a) => a.account.id === accountId);
  if ('account' in read) return { account: read.account, permission: membership?.permission };
  if (!isPortalError(read.error, 'not-found') || !membership) throw read.error;
  notices.push(
    vscode.l10n.t('The portal did not answer the organisation read: this shows what your sign-in details give.'),
  );
  return { account: membership.account, permission: membership.permission };
}

/** The subscription, or why it is not shown: refused (administrators only) or not answered (a notice). */
async function readSubscription(
  client: PortalClient,
  accountId: number,
  notices: string[],
): Promise<Subscription | { forbidden: true } | undefined> {
  try {
    return await client.v3.accounts.subscription(accountId);
  } catch (err) {
    if (isPortalError(err, 'forbidden')) return { forbidden: true };
    if (!isPortalError(err, 'not-found')) throw err;
    notices.push(vscode.l10n.t('The portal did not answer the subscription read; the subscription is not shown.'));
    return undefined;
  }
}

/**
 * A file record and how to show it: its details from wherever the portal gives them, and what the row it was opened
 * from knew for what those leave out. Both the record's document and its page read it here.
 */
async function readRecord(
  client: PortalClient,
  t: Extract<PortalTarget, { kind: 'record' | 'content' }>,
  portalLabel: string,
  customNames: Promise<CustomNames | undefined>,
): Promise<{ record: FileRecord; context: RecordContext }> {
  const [{ record, source }, custom] = await Promise.all([findRecord(client, t), customNames]);
  const notice = sourceNotice(source);
  return {
    record,
    context: {
      portalLabel,
      accountId: t.accountId,
      groupId: t.groupId,
      customNames: custom,
      // A record the portal read out names its own group and folders ([] at the root): the URI's never stand in.
      groupLabel: source === 'read' ? undefined : t.known?.groupLabel,
      folders: source === 'read' ? undefined : t.known?.folders,
      lean: source !== 'read',
      notices: notice ? [notice] : [],
    },
  };
}

const LOADERS: { readonly [K in PortalTarget['kind']]: Loader<K> } = {
  record: async (ctx, t) => {
    const { record, context } = await readRecord(ctx.client, t, ctx.portalLabel, ctx.custom(t.accountId));
    return encode(renderFileRecord(record, context), record.lastModified ?? Date.now());
  },
  content: async (ctx, t) => {
    // The bytes need no record read: without one (or its folder), the download alone says whether the file is there.
    const found = await findRecord(ctx.client, t).catch((err: unknown) => {
      if (isPortalError(err, 'not-found')) return undefined;
      throw err;
    });
    const record = found?.record;
    if (record?.isFolder)
      throw new ContentRefused(vscode.l10n.t('{0} is a folder; open one of its files.', record.name), true);
    // The portal's date only: a clock's would make VS Code see a change on the portal that never happened.
    const mtime = record?.lastModified ?? t.known?.lastModified ?? 0;
    const checked =
      record && found.source !== 'row' && isTextContentType(record.contentType, record.name)
        ? { seen: seenOf(record), writable: true }
        : {};
    if (!ctx.needBytes) return { size: record?.size ?? t.known?.size ?? 0, mtime, at: Date.now(), ...checked };
    if (record?.size && record.size > MAX_EDITOR_BYTES) {
      throw new ContentRefused(
        vscode.l10n.t(
          '{0} is {1}, too large for an editor. Use "Download…" instead.',
          record.name,
          humanSize(record.size),
        ),
      );
    }
    const bytes = await downloadBytes(ctx.client, t.groupId, t.fileId, MAX_EDITOR_BYTES);
    return { bytes, size: bytes.length, mtime, at: Date.now(), ...checked };
  },
  group: async (ctx, t) => {
    const notices: string[] = [];
    const [group, customNames] = await Promise.all([
      readGroup(ctx.client, t.accountId, t.groupId, notices),
      ctx.custom(t.accountId),
    ]);
    return encode(renderGroup(group, { portalLabel: ctx.portalLabel, accountId: t.accountId, customNames, notices }));
  },
  account: async (ctx, t) => {
    const notices: string[] = [];
    const [{ account, permission }, sub] = await Promise.all([
      readAccount(ctx.client, t.accountId, notices),
      readSubscription(ctx.client, t.accountId, notices),
    ]);
    return encode(renderAccount(account, sub, { portalLabel: ctx.portalLabel, permission, notices }));
  },
  application: async (ctx, t) => {
    const render = ctx.renderers.application;
    if (!render) throw new Error('No feature renders application documents.');
    const signedInClientId = ctx.registry.get(t.portalId)?.clientId;
    return encode(await render({ client: ctx.client, portalLabel: ctx.portalLabel, signedInClientId }, t.clientId));
  },
};

export class Documents {
  /** Custom names decorate documents; kept per account for the session. */
  private readonly customNames = new Map<TreeKey, CustomNames>();

  constructor(
    private readonly registry: PortalRegistry,
    private readonly renderers: Renderers,
  ) {}

  /**
   * A text document always renders: its data, or what kept the portal from giving it. Content is a file's bytes, so
   * its failures are errors (with a message in the portal's terms).
   */
  async load(target: PortalTarget, needBytes: boolean): Promise<Loaded> {
    const connection = this.registry.get(target.portalId);
    const portalLabel = connection?.entry.label ?? target.portalId;
    if (target.kind === 'content')
      return LOADERS.content(this.context(target.portalId, portalLabel, needBytes), target);
    if (!connection?.client) return encode(renderNotSignedIn(target, portalLabel, connection !== undefined));
    try {
      return await (LOADERS[target.kind] as Loader<PortalTarget['kind']>)(
        this.context(target.portalId, portalLabel, needBytes),
        target,
      );
    } catch (err) {
      if (isPortalError(err, 'signed-out')) return encode(renderNotSignedIn(target, portalLabel, true));
      if (isPortalError(err)) return encode(renderProblem(target, err));
      throw err;
    }
  }

  /** A file record for its page: the same reads as its document; a failure is thrown, for the page to say. */
  async record(t: Extract<PortalTarget, { kind: 'record' }>): Promise<{ record: FileRecord; context: RecordContext }> {
    const portalLabel = this.registry.get(t.portalId)?.entry.label ?? t.portalId;
    const client = this.registry.client(t.portalId);
    return readRecord(client, t, portalLabel, this.custom(client, t.portalId, t.accountId));
  }

  private context(portalId: string, portalLabel: string, needBytes: boolean): LoadContext {
    const client = this.registry.client(portalId);
    return {
      client,
      renderers: this.renderers,
      portalLabel,
      registry: this.registry,
      needBytes,
      custom: (accountId) => this.custom(client, portalId, accountId),
    };
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
