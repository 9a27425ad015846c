/**
 * Finding a file record's details on any portal. The spec marks the single-record read "not shown", so a portal may
 * not offer it: the record is then looked up in its folder's listing (the folders the Explorer walked travel with
 * the document's URI), and as a last resort rendered from what the Explorer's row knew. No VS Code here.
 */
import * as l10n from '@vscode/l10n';
import { isPortalError, parseFileRecord, PortalError, type FileRecord, type PortalClient } from '../../../api/index';
import { shownName, type PortalTarget } from './uri';

/** Where the details came from: the single read, the folder's listing, or the Explorer's row. */
type RecordSource = 'read' | 'listing' | 'row';

/** Rows of one folder looked through at most: past that, the Explorer's row stands in. */
const MAX_LISTED = 2_000;

/** Portals (by client) seen to lack the single read: asked once, then never again this session. */
const withoutRecordRead = new WeakSet<PortalClient>();

async function singleRead(
  client: PortalClient,
  t: Extract<PortalTarget, { kind: 'record' | 'content' }>,
): Promise<FileRecord | undefined> {
  if (withoutRecordRead.has(client)) return undefined;
  try {
    return await client.v2.files.get(t.accountId, t.groupId, t.fileId);
  } catch (err) {
    if (isPortalError(err, 'not-found')) return undefined;
    throw err;
  }
}

/** The record in its parent folder's listing: found, or whether the listing was read to its end without it. */
async function inListing(
  client: PortalClient,
  t: Extract<PortalTarget, { kind: 'record' | 'content' }>,
  parentId: number | undefined,
): Promise<{ found?: FileRecord; complete: boolean }> {
  const rows =
    parentId === undefined
      ? client.v2.files.iterate(t.accountId, t.groupId, { size: 100 })
      : client.v2.files.iterateChildren(t.accountId, t.groupId, parentId, { size: 100 });
  let seen = 0;
  for await (const r of rows) {
    if (r.id === t.fileId) return { found: r, complete: true };
    if (++seen >= MAX_LISTED) return { complete: false };
  }
  return { complete: true };
}

/** A record made of what the Explorer's row knew: name, type, size, date. */
function fromRow(
  t: Extract<PortalTarget, { kind: 'record' | 'content' }>,
  known: NonNullable<Extract<PortalTarget, { kind: 'record' }>['known']>,
): FileRecord {
  return parseFileRecord(
    {
      id: t.fileId,
      name: shownName(t.name),
      contentType: known.contentType ?? '',
      size: known.size ?? null,
      lastModified: known.lastModified ?? null,
    },
    '',
  );
}

function gone(what: string): PortalError {
  return new PortalError({ kind: 'not-found', endpoint: '', message: what });
}

/**
 * The record's details: the single read; else its folder's listing (which also proves the portal lacks the read);
 * else the row the document was opened from. A record its complete listing does not hold is gone.
 */
export async function findRecord(
  client: PortalClient,
  t: Extract<PortalTarget, { kind: 'record' | 'content' }>,
): Promise<{ readonly record: FileRecord; readonly source: RecordSource }> {
  const read = await singleRead(client, t);
  if (read) return { record: read, source: 'read' };
  const folders = t.known?.folders;
  if (!folders) {
    throw gone(
      l10n.t(
        'The portal did not give this file record, and this link does not say which folder holds it: the record may have been deleted or moved, or the portal offers no single-record read. Open it again from the Explorer.',
      ),
    );
  }
  const listed = await inListing(client, t, folders.at(-1)?.id);
  if (listed.found) {
    withoutRecordRead.add(client);
    return { record: listed.found, source: 'listing' };
  }
  if (listed.complete) throw gone(l10n.t('The record is no longer in its folder: it may have been deleted or moved.'));
  return { record: fromRow(t, t.known ?? {}), source: 'row' };
}

/** What a document built from a listing or a row says about where its details came from. */
export function sourceNotice(source: RecordSource): string | undefined {
  switch (source) {
    case 'read':
      return undefined;
    case 'listing':
      return l10n.t(
        "The portal offers no read of a single file record: this shows what its folder's listing gives, which leaves out the uploader, versions, description and tags.",
      );
    case 'row':
      return l10n.t(
        'The portal offers no read of a single file record, and its folder is too long to look through: this shows what the Explorer listed when the record was opened.',
      );
  }
}
