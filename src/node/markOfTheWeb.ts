/**
 * Windows' Mark-of-the-Web: a `Zone.Identifier` alternate data stream beside a downloaded file says it came from
 * the Internet zone, so Office opens it in Protected View and SmartScreen checks it before it runs, as for a file
 * a browser downloaded. Other platforms have no such stream; nothing is written there.
 */
import * as fs from 'node:fs';

/** Writes one stream: `path` names it as `file:Zone.Identifier`. */
export type StreamWriter = (path: string, content: string) => Promise<void>;

const writeStream: StreamWriter = (path, content) => fs.promises.writeFile(path, content, 'utf8');

/** The stream's content: Internet zone (3), and where the file came from (an origin, so nothing else travels). */
export function zoneIdentifier(portalUrl: string): string {
  return `[ZoneTransfer]\r\nZoneId=3\r\nHostUrl=${new URL(portalUrl).origin}\r\n`;
}

/**
 * Marks a downloaded file as from the Internet on Windows. True when the mark was written; false on another
 * platform, or where the file system keeps no alternate streams (FAT, some network shares): the download stands.
 */
export async function markOfTheWeb(
  file: string,
  portalUrl: string,
  platform: NodeJS.Platform = process.platform,
  write: StreamWriter = writeStream,
): Promise<boolean> {
  if (platform !== 'win32') return false;
  try {
    const content = zoneIdentifier(portalUrl);
    await write(`${file}:Zone.Identifier`, content);
    return true;
  } catch {
    return false;
  }
}
