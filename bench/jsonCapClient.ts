// Child of bench/jsonCap.ts: one JSON call against a portal that answers it with 1 GiB, and this process's peak
// memory meanwhile. Prints one JSON report on stdout.
import { PortalClient } from '../src/api';

async function main(): Promise<void> {
  const url = process.argv[2] ?? '';
  const mb = (bytes: number) => Math.round((bytes / (1024 * 1024)) * 10) / 10;
  const attempts: string[] = [];
  const client = new PortalClient({
    baseUrl: url,
    service: 'portal',
    log: (l) => {
      if (l.path === '/v3/userinfo') attempts.push(String(l.status ?? l.errorKind));
    },
  });
  await client.signIn({ kind: 'password', username: 'demo', password: 'demo' });
  global.gc?.();
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  let error = 'none: the call succeeded';
  try {
    await client.v3.userinfo();
  } catch (e) {
    error = e instanceof Error ? e.message : String(e);
  }
  peak = Math.max(peak, process.memoryUsage().rss);
  clearInterval(sampler);
  client.close();
  process.stdout.write(
    JSON.stringify({ peakRssMb: mb(peak), baselineRssMb: mb(baseline), attempts: attempts.length, error }),
  );
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
