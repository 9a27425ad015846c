// A separate process that plans a members file and applies it, so a test (or the bench) can kill it halfway
// with SIGKILL, the way a crash or a window reload ends an apply, and then resume from its journal.
// argv: baseUrl accountId fileWithText storageFolder concurrency [portalId]
// (portalId: the journal's portal, so an extension that has it signed in can resume it; default "test")
import { readFile } from 'node:fs/promises';
import { PortalClient } from '../../../../src/api';
import { applyPlan } from '../../../../src/engine/members/apply';
import { parseMembersFile } from '../../../../src/features/members/plan/core/file/membersFile';
import { makePlan } from '../../../../src/features/members/plan/core/planner';
import { readPortalState } from '../../../../src/features/members/plan/core/portalState';

async function main(): Promise<void> {
  const [baseUrl, account, textFile, storage, concurrency, portalId] = process.argv.slice(2);
  const client = new PortalClient({ baseUrl: baseUrl ?? '', service: 'portal' });
  await client.signIn({ kind: 'password', username: 'demo', password: 'demo' });
  const file = parseMembersFile(await readFile(textFile ?? '', 'utf8'));
  const accountId = Number(account);
  const plan = makePlan(file, await readPortalState(client, accountId, file));
  await applyPlan(client, plan, {
    journalFolder: storage ?? '',
    portalId: portalId ?? 'test',
    concurrency: Number(concurrency) || 4,
  });
  client.close();
}

void main();
