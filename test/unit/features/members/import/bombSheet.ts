// Hostile workbooks for the import's bounds, written byte by byte (a zip writer of a few lines), so their sizes and
// order are exactly what a test needs: the worksheet before its shared strings (Excel's own order, which exceljs
// spools to disk), and a shared-strings part that inflates to far more than any sheet of people.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { constants, crc32, deflateRawSync } from 'node:zlib';

interface Part {
  readonly name: string;
  /** The uncompressed text, produced a piece at a time. */
  readonly pieces: () => Iterable<string>;
  /** A size to declare instead of the true one (a lying directory). */
  readonly declare?: number;
}

const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';
const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

function once(text: string): () => Iterable<string> {
  return () => [text];
}

/** The parts of a one-sheet workbook whose cells name shared strings 0 and 1; `strings` is the shared strings' body. */
function workbookParts(strings: () => Iterable<string>, declare?: number): Part[] {
  return [
    {
      name: '[Content_Types].xml',
      pieces: once(
        `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>`,
      ),
    },
    {
      name: '_rels/.rels',
      pieces: once(
        `${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
      ),
    },
    {
      name: 'xl/workbook.xml',
      pieces: once(
        `${XML}<workbook xmlns="${MAIN}" xmlns:r="${REL}"><sheets><sheet name="Starters" sheetId="1" r:id="rId1"/></sheets></workbook>`,
      ),
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      pieces: once(
        `${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
      ),
    },
    {
      // Before the shared strings, as Excel stores them.
      name: 'xl/worksheets/sheet1.xml',
      pieces: once(
        `${XML}<worksheet xmlns="${MAIN}"><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row><row r="2"><c r="A2" t="s"><v>1</v></c><c r="B2" t="s"><v>0</v></c></row></sheetData></worksheet>`,
      ),
    },
    { name: 'xl/sharedStrings.xml', pieces: strings, ...(declare === undefined ? {} : { declare }) },
  ];
}

/** Writes the parts as a zip (deflated), with a central directory that declares `declare` where a part says so. */
function writeZip(file: string, parts: readonly Part[]): void {
  const fd = fs.openSync(file, 'w');
  const directory: Buffer[] = [];
  let offset = 0;
  const write = (b: Buffer) => {
    fs.writeSync(fd, b);
    offset += b.length;
  };
  try {
    for (const part of parts) {
      // Each piece is its own run of deflate blocks (a sync flush ends it on a byte boundary), so a piece repeated
      // is compressed once and its bytes repeated: a bomb of gigabytes is written in seconds.
      const deflated = new Map<string, Buffer>();
      const chunks: Buffer[] = [];
      let size = 0;
      let crc = 0;
      for (const piece of part.pieces()) {
        const b = Buffer.from(piece, 'utf8');
        size += b.length;
        crc = crc32(b, crc);
        let d = deflated.get(piece);
        if (!d) {
          d = deflateRawSync(b, { level: 9, finishFlush: constants.Z_SYNC_FLUSH });
          deflated.set(piece, d);
        }
        chunks.push(d);
      }
      chunks.push(deflateRawSync(Buffer.alloc(0)));
      const compressed = Buffer.concat(chunks);
      const name = Buffer.from(part.name, 'utf8');
      const local = Buffer.alloc(30);
      local.writeUInt32LE(0x04034b50, 0);
      local.writeUInt16LE(20, 4);
      local.writeUInt16LE(8, 8);
      local.writeUInt32LE(crc >>> 0, 14);
      local.writeUInt32LE(compressed.length, 18);
      local.writeUInt32LE(size, 22);
      local.writeUInt16LE(name.length, 26);
      const at = offset;
      write(Buffer.concat([local, name]));
      write(compressed);
      const central = Buffer.alloc(46);
      central.writeUInt32LE(0x02014b50, 0);
      central.writeUInt16LE(20, 4);
      central.writeUInt16LE(20, 6);
      central.writeUInt16LE(8, 10);
      central.writeUInt32LE(crc >>> 0, 16);
      central.writeUInt32LE(compressed.length, 20);
      central.writeUInt32LE(part.declare ?? size, 24);
      central.writeUInt16LE(name.length, 28);
      central.writeUInt32LE(at, 42);
      directory.push(Buffer.concat([central, name]));
    }
    const start = offset;
    const dir = Buffer.concat(directory);
    write(dir);
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(parts.length, 8);
    end.writeUInt16LE(parts.length, 10);
    end.writeUInt32LE(dir.length, 12);
    end.writeUInt32LE(start, 16);
    write(end);
  } finally {
    fs.closeSync(fd);
  }
}

/** `count` shared strings of `length` x's each: a few megabytes that inflate to `count × length` bytes. */
function* manyStrings(count: number, length: number): Generator<string> {
  yield `${XML}<sst xmlns="${MAIN}" count="${count}" uniqueCount="${count}">`;
  const one = `<si><t>${'x'.repeat(length)}</t></si>`;
  const batch = one.repeat(Math.max(1, Math.floor((1024 * 1024) / one.length)));
  const perBatch = Math.max(1, Math.floor((1024 * 1024) / one.length));
  let left = count;
  for (; left >= perBatch; left -= perBatch) yield batch;
  yield one.repeat(left);
  yield '</sst>';
}

/**
 * A shared-strings bomb: a workbook of `megabytes` of shared strings' text (declared honestly), stored after its
 * worksheet. 1,600 inflated megabytes are about 3.5 MB on disk.
 */
export function writeSharedStringsBomb(file: string, megabytes: number): void {
  const length = 1000;
  const count = Math.floor((megabytes * 1024 * 1024) / (length + 13));
  writeZip(
    file,
    workbookParts(() => manyStrings(count, length)),
  );
}

/** A small workbook whose directory says its shared strings are `declare` bytes, while they inflate to far more. */
export function writeLyingWorkbook(file: string, megabytes: number, declare: number): void {
  const length = 1000;
  const count = Math.floor((megabytes * 1024 * 1024) / (length + 13));
  writeZip(
    file,
    workbookParts(() => manyStrings(count, length), declare),
  );
}

/** Bytes of the files under `folder`, however deep (the temporary folders a read left). */
export function bytesUnder(folder: string): number {
  if (!fs.existsSync(folder)) return 0;
  return fs
    .readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .reduce((n, e) => n + fs.statSync(path.join(e.parentPath, e.name)).size, 0);
}
