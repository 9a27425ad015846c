// A real emulator started from the demo seed with members changed first: portal data less tidy than the seed's
// (names with spaces around, nulls, formula-looking values), written as the emulator's data file.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writeStateAtomically } from '../../../../../emulator/persistence';
import { buildSeed } from '../../../../../emulator/seeds';
import type { Store } from '../../../../../emulator/store';
import type { EmulatorOptions } from '../../../../../emulator';
import { withPortal, type Portal } from './helpers';
import { tempDir } from '../../../../../support/tempDir';

/** Runs `run` against a portal whose demo seed `change` edited first (users and memberships in place). */
export async function withSeededPortal(
  change: (store: Store) => void,
  run: (p: Portal) => Promise<void>,
  options: Partial<EmulatorOptions> = {},
): Promise<void> {
  const folder = tempDir('portal-seeded-');
  try {
    const store = buildSeed('demo');
    change(store);
    const dataFile = join(folder, 'state.json');
    writeStateAtomically(dataFile, { data: store.snapshot(), tokens: { access: [], refresh: [] } });
    await withPortal(run, { ...options, dataFile });
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** acme's members other than demo (who signs in), in the seed's order. */
export function acmeUsers(store: Store): Array<{ userId: number; username: string }> {
  const acme = [...store.accounts.values()].find((a) => a.name === 'acme');
  if (!acme) throw new Error('no acme');
  return store
    .membersOf(acme.id)
    .map((m) => ({ userId: m.userId, username: store.users.get(m.userId)?.username ?? '' }))
    .filter((u) => u.username !== '' && u.username !== 'demo');
}
