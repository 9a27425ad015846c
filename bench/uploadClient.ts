// Child of bench/uploads.ts: uploads one large file through the API module (chunked, streamed from disk through a
// pinned handle, checked before each chunk, as the upload engine sends it), and sends the same bytes as one plain
// streamed POST to the emulator; reports this process's memory growth and both times.
import { createReadStream } from 'node:fs';
import { request } from 'undici';
import { PortalClient } from '../src/api';
import { identify, pin } from '../src/node/pinnedFile';

interface Args {
  url: string;
  file: string;
  size: number;
  accountId: number;
  groupId: number;
}

async function chunked(client: PortalClient, a: Args, run: number): Promise<number> {
  const identity = await identify(a.file);
  const started = performance.now();
  const file = await pin(a.file, identity);
  try {
    await client.uploads.upload(
      { accountId: a.accountId, groupId: a.groupId, folderId: 0, path: `large-${run}.bin` },
      {
        size: a.size,
        contentType: 'application/octet-stream',
        stream: (start, end) => file.stream(start, end),
        read: (start, end, into) => file.read(start, end, into),
      },
      { uploadId: `bench-large-${run}` },
    );
  } finally {
    await file.close();
  }
  return (performance.now() - started) / 1000;
}

/** The same bytes in one streamed request: what a client with no chunks, no retries and no budget would take. */
async function plain(token: string, a: Args, run: number): Promise<number> {
  const started = performance.now();
  const res = await request(`${a.url}/v2/accounts/${a.accountId}/groups/${a.groupId}/files/upload/data`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/octet-stream',
      'x-file-id': `bench-plain-${run}`,
      'x-file-start': '0',
      'x-file-end': String(a.size),
      'x-file-size': String(a.size),
    },
    body: createReadStream(a.file),
  });
  await res.body.text();
  if (res.statusCode !== 200) throw new Error(`plain POST: ${res.statusCode}`);
  return (performance.now() - started) / 1000;
}

async function main(): Promise<void> {
  const a = JSON.parse(process.argv[2] ?? '{}') as Args;
  const client = new PortalClient({ baseUrl: a.url, service: 'portal' });
  await client.signIn({ kind: 'password', username: 'demo', password: 'demo' });
  const token = await client.accessToken();
  global.gc?.();
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  // Each way twice, in the order plain, chunked, chunked, plain, and the faster of each: neither way gains from the
  // other warming the file's pages or from the machine's load drifting during the run.
  const plainFirst = await plain(token, a, 1);
  const chunkedS = Math.min(await chunked(client, a, 1), await chunked(client, a, 2));
  peak = Math.max(peak, process.memoryUsage().rss);
  clearInterval(sampler);
  const plainS = Math.min(plainFirst, await plain(token, a, 2));
  client.close();
  process.stdout.write(JSON.stringify({ rssGrowthMb: (peak - baseline) / (1024 * 1024), chunkedS, plainS }));
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
