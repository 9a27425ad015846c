// A separate process that resumes one journal, so a test (or the bench) can run two resumes of the same journal at
// once, the way two windows answer the start-up offer together. Prints "resumed", "busy" or "nothing" and exits 0.
// argv: baseUrl journalFile storageFolder
import { PortalClient, isPortalError } from '../../../../src/api';
import { readJournal, resumeApply } from '../../../../src/engine/members/index';

async function main(): Promise<void> {
  const [baseUrl, file, storage] = process.argv.slice(2);
  const client = new PortalClient({ baseUrl: baseUrl ?? '', service: 'portal' });
  await client.signIn({ kind: 'password', username: 'demo', password: 'demo' });
  try {
    const result = await resumeApply(client, await readJournal(file ?? ''), {
      journalFolder: storage ?? '',
      concurrency: 3,
      confirm: async () => true,
    });
    process.stdout.write(result.requests > 0 ? 'resumed' : 'nothing');
  } catch (error) {
    if (!isPortalError(error, 'conflict')) throw error;
    process.stdout.write('busy');
  } finally {
    client.close();
  }
}

void main();
