// Child of bench/membersFile.ts: what the extension host does with a 45 MB members file, in a process of its own so
// that the emulator's work (which serves the portal's side) is neither in the event loop measured nor in the memory.
// Reads the file's text (the document VS Code holds), then: opened and edited once (the live checks see its size and
// stop with one message, reading only its first line), then planned as Plan Changes… does (read, hashed and planned
// by the planning worker, the portal read by this thread in between). Prints one JSON line of figures.
import { readFileSync } from 'node:fs';
import { PortalClient } from '../src/api';
import { looksLikeMembersFile } from '../src/features/members/plan/core/file/membersFile';
import { readPortalState } from '../src/features/members/plan/core/portalState';
import { readInWorker } from '../src/features/members/plan/core/worker/planInWorker';

const LIVE_CHECK_LIMIT = 5_000_000;

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** The longest gap of a 1 ms timer while `work` runs, and the highest RSS seen at those ticks. */
async function watched<T>(work: () => Promise<T>): Promise<{ result: T; blockMs: number; peakRss: number }> {
  let last = performance.now();
  let longest = 0;
  let peakRss = process.memoryUsage.rss();
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last - 1);
    last = now;
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
  }, 1);
  try {
    const result = await work();
    return { result, blockMs: Math.round(Math.max(longest, 0)), peakRss: Math.max(peakRss, process.memoryUsage.rss()) };
  } finally {
    clearInterval(timer);
  }
}

async function main(): Promise<void> {
  const [url, fileName] = process.argv.slice(2);
  if (!url || !fileName) throw new Error('usage: membersFileClient <emulator url> <members file>');
  const client = new PortalClient({ baseUrl: url, service: 'portal' });
  try {
    await client.signIn({ kind: 'password', username: 'demo', password: 'demo' });
    const accountId = (await client.v3.accounts.list())[0]?.id ?? 1;
    let content = readFileSync(fileName, 'utf8');
    const rssBefore = process.memoryUsage.rss();
    const started = performance.now();
    const {
      result: plan,
      blockMs,
      peakRss,
    } = await watched(async () => {
      for (let edit = 0; edit < 2; edit++) {
        if (edit === 1) content = content.replace('mailed.0,', 'mailed.zero,');
        const firstLine = content.slice(0, content.indexOf('\n'));
        if (!looksLikeMembersFile(firstLine) || content.length <= LIVE_CHECK_LIMIT) throw new Error('not a large file');
        await nextTurn();
      }
      const file = await readInWorker(content, {});
      try {
        const state = await readPortalState(client, accountId, file.needs);
        return (await file.plan(state, { fileDigest: file.read.digest })).plan;
      } finally {
        await file.close();
      }
    });
    const mb = (bytes: number): number => Math.round(bytes / 1024 / 1024);
    console.log(
      JSON.stringify({
        blockMs,
        rssGrowthMb: mb(process.memoryUsage.rss() - rssBefore),
        peakRssGrowthMb: mb(peakRss - rssBefore),
        planS: Math.round((performance.now() - started) / 100) / 10,
        fieldChanges: plan.fieldChanges.length,
      }),
    );
  } finally {
    client.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
