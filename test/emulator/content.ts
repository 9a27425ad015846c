// File bytes. Demo text files store their text; everything else is generated from the record on
// demand, so the large seed never holds 50,000 buffers and a download is always exactly `size` bytes.
import { existsSync, readFileSync } from 'node:fs';
import type { FileRecord } from './model';

/** A valid 1x1 PNG; decoders ignore bytes after IEND, which is where the padding goes. */
const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

const PDF_HEAD =
  '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n';
const PDF_TAIL = '\n%%EOF\n';

export const CONTENT_TYPES: Record<string, string> = {
  md: 'text/markdown',
  txt: 'text/plain',
  csv: 'text/csv',
  json: 'application/json',
  ts: 'text/typescript',
  png: 'image/png',
  pdf: 'application/pdf',
};

export function contentTypeOf(fileName: string): string {
  const ext = fileName.slice(fileName.lastIndexOf('.') + 1).toLowerCase();
  // hasOwn: a file named `constructor` or `__proto__` must not find Object.prototype's members.
  return Object.hasOwn(CONTENT_TYPES, ext)
    ? (CONTENT_TYPES[ext] ?? 'application/octet-stream')
    : 'application/octet-stream';
}

/** The smallest size a generated file of this type can have. */
export function minimumSize(contentType: string): number {
  if (contentType === 'image/png') return PNG_1X1.length;
  if (contentType === 'application/pdf') return PDF_HEAD.length + PDF_TAIL.length;
  return 0;
}

export function fileBytes(f: FileRecord): Buffer {
  if (f.blob) return Buffer.concat(f.blob.map((p) => (existsSync(p) ? readFileSync(p) : Buffer.alloc(0))));
  if (f.text !== undefined) return Buffer.from(f.text, 'utf8');
  const size = Math.max(f.size, minimumSize(f.contentType));
  if (f.contentType === 'image/png') return Buffer.concat([PNG_1X1, Buffer.alloc(size - PNG_1X1.length)]);
  if (f.contentType === 'application/pdf') {
    const pad = size - PDF_HEAD.length - PDF_TAIL.length;
    return Buffer.from(PDF_HEAD + '%'.repeat(pad) + PDF_TAIL, 'latin1');
  }
  return generatedText(f, size);
}

function generatedText(f: FileRecord, size: number): Buffer {
  const lines: string[] = [];
  let length = 0;
  for (let n = 1; length < size; n++) {
    const line =
      f.contentType === 'text/csv'
        ? `${n},${f.name},${(f.id * 31 + n) % 997}\n`
        : `Line ${n} of ${f.name} (record ${f.id})\n`;
    lines.push(line);
    length += line.length;
  }
  return Buffer.from(lines.join('').slice(0, size), 'utf8');
}
