/**
 * A zip file (an `.xlsx`) checked before any library reads it, and handed on only as what was checked. The central
 * directory is read first (entry count, each entry's declared sizes, their total and ratio), so a bomb is refused
 * after reading a few kilobytes. The entries a reader needs are then passed on as a new zip stream of stored
 * (uncompressed) entries, in the order the caller asks, each inflated here and stopped the moment it outgrows the
 * size its directory declared: what the reader sees is bounded by the sizes checked, whatever the file's local
 * headers claim, and no entry needs spooling to disk to be read in a better order.
 */
import * as fs from 'node:fs/promises';
import { Readable } from 'node:stream';
import { crc32, createInflateRaw } from 'node:zlib';
import { UnsafePathError } from './unsafePath';

export interface ZipLimits {
  /** More entries than this: refused. */
  readonly maxEntries: number;
  /** One entry's declared uncompressed size above this: refused. */
  readonly maxEntryBytes: number;
  /** All entries' declared uncompressed sizes together above this: refused. */
  readonly maxTotalBytes: number;
  /** An entry above 1 MiB uncompressed that inflates more than this many times its compressed size: refused. */
  readonly maxRatio: number;
}

export interface ZipEntry {
  readonly name: string;
  readonly method: number;
  readonly crc: number;
  readonly compressedSize: number;
  readonly size: number;
  readonly headerOffset: number;
}

/** Why a zip was refused; `reason` says which check, the message says it for a person. */
export class ZipRefused extends Error {
  override readonly name = 'ZipRefused';
  constructor(
    readonly reason: 'not-a-zip' | 'entries' | 'entry-size' | 'total-size' | 'ratio' | 'method' | 'size-mismatch',
    message: string,
  ) {
    super(message);
  }
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const EOCD_BYTES = 22;
const MAX_COMMENT = 0xffff;
const RATIO_FLOOR = 1024 * 1024;
const STORED = 0;
const DEFLATED = 8;

async function readAt(handle: fs.FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buffer, 0, length, position);
  return buffer.subarray(0, bytesRead);
}

/** The end-of-central-directory record's count, size and offset of the directory. */
async function endRecord(
  handle: fs.FileHandle,
  fileSize: number,
): Promise<{ count: number; size: number; at: number }> {
  const tailLength = Math.min(fileSize, EOCD_BYTES + MAX_COMMENT);
  const tail = await readAt(handle, fileSize - tailLength, tailLength);
  for (let i = tail.length - EOCD_BYTES; i >= 0; i--) {
    if (tail.readUInt32LE(i) !== EOCD) continue;
    const count = tail.readUInt16LE(i + 10);
    const size = tail.readUInt32LE(i + 12);
    const at = tail.readUInt32LE(i + 16);
    // Zip64 (a directory past 4 GiB or 65,535 entries) is no spreadsheet of people.
    if (count === 0xffff || size === 0xffffffff || at === 0xffffffff || at + size > fileSize) break;
    return { count, size, at };
  }
  throw new ZipRefused('not-a-zip', 'The file is not a readable workbook (no zip directory).');
}

function refuseSizes(entries: readonly ZipEntry[], limits: ZipLimits): void {
  let total = 0;
  for (const e of entries) {
    if (e.method !== STORED && e.method !== DEFLATED)
      throw new ZipRefused('method', `The workbook's ${e.name} is compressed in a way it cannot be read.`);
    if (e.size > limits.maxEntryBytes)
      throw new ZipRefused('entry-size', `The workbook's ${e.name} would take ${e.size} bytes to read.`);
    if (e.size > RATIO_FLOOR && e.size > e.compressedSize * limits.maxRatio)
      throw new ZipRefused(
        'ratio',
        `The workbook's ${e.name} inflates ${Math.round(e.size / Math.max(1, e.compressedSize))} times.`,
      );
    total += e.size;
  }
  if (total > limits.maxTotalBytes)
    throw new ZipRefused('total-size', `The workbook would take ${total} bytes to read.`);
}

/**
 * The zip's entries from its central directory, refused by `limits` before anything is inflated. Sizes are checked
 * for the entries `read` keeps (those that will be inflated; default all), and only those are returned.
 */
export async function zipEntries(
  file: string,
  limits: ZipLimits,
  read: (name: string) => boolean = () => true,
): Promise<ZipEntry[]> {
  const handle = await fs.open(file, 'r');
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new UnsafePathError('not-a-file', file);
    const end = await endRecord(handle, stat.size);
    if (end.count > limits.maxEntries)
      throw new ZipRefused('entries', `The workbook holds ${end.count} entries; a sheet of people needs far fewer.`);
    const directory = await readAt(handle, end.at, end.size);
    const entries: ZipEntry[] = [];
    let at = 0;
    while (at + 46 <= directory.length && entries.length < end.count) {
      if (directory.readUInt32LE(at) !== CENTRAL) break;
      const nameLength = directory.readUInt16LE(at + 28);
      const skip = nameLength + directory.readUInt16LE(at + 30) + directory.readUInt16LE(at + 32);
      entries.push({
        method: directory.readUInt16LE(at + 10),
        crc: directory.readUInt32LE(at + 16),
        compressedSize: directory.readUInt32LE(at + 20),
        size: directory.readUInt32LE(at + 24),
        headerOffset: directory.readUInt32LE(at + 42),
        name: directory.toString('utf8', at + 46, at + 46 + nameLength),
      });
      at += 46 + skip;
    }
    if (entries.length !== end.count) throw new ZipRefused('not-a-zip', 'The workbook’s zip directory is damaged.');
    const kept = entries.filter((e) => read(e.name));
    refuseSizes(kept, limits);
    return kept;
  } finally {
    await handle.close();
  }
}

function localHeader(entry: ZipEntry, name: Buffer): Buffer {
  const header = Buffer.alloc(30);
  header.writeUInt32LE(LOCAL, 0);
  header.writeUInt16LE(20, 4);
  header.writeUInt16LE(0x800, 6); // the name is UTF-8
  header.writeUInt16LE(STORED, 8);
  header.writeUInt32LE(entry.crc, 14);
  header.writeUInt32LE(entry.size, 18);
  header.writeUInt32LE(entry.size, 22);
  header.writeUInt16LE(name.length, 26);
  return Buffer.concat([header, name]);
}

/** An empty end-of-central-directory record: the stream's readers stop there. */
function emptyEnd(): Buffer {
  const end = Buffer.alloc(EOCD_BYTES);
  end.writeUInt32LE(EOCD, 0);
  return end;
}

const CHUNK = 64 * 1024;

/** `length` bytes of the open file from `start`, a chunk at a time (the handle stays open for the next entry). */
async function* rawBytes(handle: fs.FileHandle, start: number, length: number): AsyncGenerator<Buffer> {
  for (let at = 0; at < length;) {
    const chunk = await readAt(handle, start + at, Math.min(CHUNK, length - at));
    if (chunk.length === 0) throw new ZipRefused('not-a-zip', 'The workbook ends before its entries do.');
    at += chunk.length;
    yield chunk;
  }
}

/** One entry's bytes as stored, inflated here, refused the moment they outgrow (or fall short of) its declared size. */
async function* entryBytes(handle: fs.FileHandle, entry: ZipEntry): AsyncGenerator<Buffer> {
  const local = await readAt(handle, entry.headerOffset, 30);
  if (local.length < 30 || local.readUInt32LE(0) !== LOCAL)
    throw new ZipRefused('not-a-zip', `The workbook's ${entry.name} is not where its directory says.`);
  const start = entry.headerOffset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
  const compressed = Readable.from(rawBytes(handle, start, entry.compressedSize));
  const bytes = entry.method === DEFLATED ? compressed.pipe(createInflateRaw()) : compressed;
  let seen = 0;
  try {
    for await (const chunk of bytes as AsyncIterable<Buffer>) {
      seen += chunk.length;
      if (seen > entry.size)
        throw new ZipRefused('size-mismatch', `The workbook's ${entry.name} is larger than it says.`);
      yield chunk;
    }
  } finally {
    compressed.destroy();
    bytes.destroy();
  }
  if (seen !== entry.size)
    throw new ZipRefused('size-mismatch', `The workbook's ${entry.name} is not the size it says.`);
}

/**
 * A zip stream of `wanted` (names of `entries`, in this order; `extra` adds small entries made here) with every
 * entry stored, for a streaming zip reader. The file stays open until the stream ends or is destroyed.
 */
export function storedZip(
  file: string,
  entries: readonly ZipEntry[],
  wanted: readonly string[],
  extra: ReadonlyMap<string, Buffer> = new Map(),
): Readable {
  async function* parts(): AsyncGenerator<Buffer> {
    const handle = await fs.open(file, 'r');
    try {
      for (const name of wanted) {
        const made = extra.get(name);
        const entry = entries.find((e) => e.name === name);
        const nameBytes = Buffer.from(name, 'utf8');
        if (made) {
          const e = {
            name,
            method: STORED,
            crc: crc32(made),
            compressedSize: made.length,
            size: made.length,
            headerOffset: 0,
          };
          yield localHeader(e, nameBytes);
          yield made;
        } else if (entry) {
          yield localHeader(entry, nameBytes);
          yield* entryBytes(handle, entry);
        }
      }
      yield emptyEnd();
    } finally {
      await handle.close();
    }
  }
  return Readable.from(parts(), { objectMode: false });
}
