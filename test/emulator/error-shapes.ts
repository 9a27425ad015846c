// Error bodies in the shapes the spec leaves open (it shows no error body at all): nothing, plain
// text, or the kind of HTML page a proxy or framework default answers with. Clients must cope with
// each without showing markup or following the command link the page carries.
import { STATUS_CODES } from 'node:http';
import type { Reply } from './http';
import type { ErrorShape } from './types';

export const ERROR_SHAPES: readonly ErrorShape[] = ['empty', 'text', 'html'];

/** In every HTML error page: a client that renders server text as Markdown would make it a live link. */
export const HTML_COMMAND_LINK = '[Click](command:workbench.action.openSettings)';

const escapeHtml = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function reasonOf(status: number): string {
  return STATUS_CODES[status] ?? 'Error';
}

export function shapedError(
  status: number,
  shape: ErrorShape,
  message = reasonOf(status),
  headers: Record<string, string> = {},
): Reply {
  const reason = reasonOf(status);
  switch (shape) {
    case 'empty':
      return { kind: 'empty', status, headers };
    case 'text':
      return {
        kind: 'bytes',
        status,
        bytes: Buffer.from(`${status} ${reason}: ${message}\n`, 'utf8'),
        headers: { 'Content-Type': 'text/plain; charset=utf-8', ...headers },
      };
    case 'html': {
      const page =
        `<!DOCTYPE html>\n<html><head><title>${status} ${escapeHtml(reason)}</title></head>\n` +
        `<body><h1>${escapeHtml(reason)}</h1><p>${escapeHtml(message)}</p>\n` +
        `<p>Need help? ${HTML_COMMAND_LINK}</p><hr><address>portal-frontend</address></body></html>\n`;
      return {
        kind: 'bytes',
        status,
        bytes: Buffer.from(page, 'utf8'),
        headers: { 'Content-Type': 'text/html; charset=utf-8', ...headers },
      };
    }
  }
}
