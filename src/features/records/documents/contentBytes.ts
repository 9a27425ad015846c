/**
 * A file record's content as bytes, bounded: what an editor is given, and what a save compares with the portal's
 * copy when the portal's dates say nothing. No VS Code here.
 */
import * as l10n from '@vscode/l10n';
import type { PortalClient } from '../../../api/index';

/** The editor is for reading; larger content is for "Download…". */
export const MAX_EDITOR_BYTES = 20 * 1024 * 1024;

/** A content read that cannot be an editor's (a folder, too large): the message says why in the portal's terms. */
export class ContentRefused extends Error {
  override readonly name = 'ContentRefused';
  constructor(
    message: string,
    readonly isFolder = false,
  ) {
    super(message);
  }
}

/** Reads a download fully, refusing more than `limit` bytes (the server's size may be stale or missing). */
export async function downloadBytes(
  client: PortalClient,
  groupId: number,
  fileId: number,
  limit = MAX_EDITOR_BYTES,
): Promise<Uint8Array> {
  const controller = new AbortController();
  const download = await client.v2.files.download(groupId, fileId, { signal: controller.signal });
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of download.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limit) {
        controller.abort();
        throw new ContentRefused(l10n.t('The content is too large for an editor. Use "Download…" instead.'));
      }
      chunks.push(chunk);
    }
  } finally {
    download.body.destroy();
  }
  return new Uint8Array(Buffer.concat(chunks));
}
