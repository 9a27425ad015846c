// What the folder download's tests share: a scratch folder, the group a test walks, and reading what was written.
import { after, before } from 'node:test';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { PortalClient } from '../../../../../src/api';
import { walkFolder, type FolderTarget } from '../../../../../src/features/records/download/folderPlan';
import { accountIdOf, demoClient, emulator, groupIdOf, type Emulator } from '../../helpers';
import { tempDir } from '../../../../support/tempDir';

/** A scratch folder for the calling test file, removed after it; `fresh()` makes an empty target inside. */
export function useScratch(): { readonly dir: string; fresh(): string } {
  let dir = '';
  before(() => {
    dir = tempDir('portal-folder-');
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return {
    get dir() {
      return dir;
    },
    fresh: () => fs.mkdtempSync(path.join(dir, 'to-')),
  };
}

/** Every file below `dir`, relative, with "/" separators. */
export function filesBelow(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((d) => d.isFile())
    .map((d) => path.relative(dir, path.join(d.parentPath, d.name)).split(path.sep).join('/'))
    .sort();
}

/** Every folder below `dir` (absolute). */
export function foldersBelow(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((d) => d.isDirectory())
    .map((d) => path.join(d.parentPath, d.name));
}

export interface Portal {
  emu: Emulator;
  client: PortalClient;
  account: number;
  group: number;
}

export async function withGroup(
  seed: 'demo' | 'hostile' | 'large',
  account: string,
  group: string,
  run: (p: Portal) => Promise<void>,
  large?: { members: number; files: number; groups: number; folderDepth: number },
): Promise<void> {
  const emu = await emulator({ seed, ...(large ? { large } : {}) });
  const client = await demoClient(emu).catch(async (error: unknown) => {
    await emu.stop();
    throw error;
  });
  try {
    const accountId = await accountIdOf(client, account);
    await run({ emu, client, account: accountId, group: await groupIdOf(client, accountId, group) });
  } finally {
    client.close();
    await emu.stop();
  }
}

/** The folder `folderId` (0: the root) of the test's group, as the download command names it. */
export const folderOf = (p: Portal, folderId: number, name: string): FolderTarget => ({
  group: {
    kind: 'group',
    account: { kind: 'account', portalId: 'emulator', accountId: p.account, label: '' },
    groupId: p.group,
    label: name,
  },
  folderId,
  name,
});

export const engineering = (p: Portal, options = {}) => walkFolder(p.client, folderOf(p, 0, 'engineering'), options);

export async function bytesOf(p: Portal, fileId: number): Promise<Buffer> {
  const d = await p.client.v2.files.download(p.group, fileId);
  const chunks: Buffer[] = [];
  for await (const c of d.body as AsyncIterable<Buffer>) chunks.push(c);
  return Buffer.concat(chunks);
}
