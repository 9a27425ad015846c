// Measures the large seed: generation time, and the time to page through every root file record
// of the bulk group at size 100 over real HTTP. Prints `name: value` lines.
// Run: node --import tsx test/emulator/measure-large.ts [--members N] [--files N] [--groups N]
import { parseArgs } from 'node:util';
import { buildSeed } from './seeds';
import { startEmulator } from './index';

interface FilePage {
  page: Array<{ id: number }>;
  nextPage: boolean;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { members: { type: 'string' }, files: { type: 'string' }, groups: { type: 'string' } },
  });
  const large = {
    ...(values.members ? { members: Number(values.members) } : {}),
    ...(values.files ? { files: Number(values.files) } : {}),
    ...(values.groups ? { groups: Number(values.groups) } : {}),
  };

  const t0 = performance.now();
  const store = buildSeed('large', large);
  const generationMs = performance.now() - t0;
  console.log(`generation_ms: ${generationMs.toFixed(0)}`);
  console.log(`users: ${store.users.size}`);
  console.log(`groups: ${store.groups.size}`);
  console.log(`file_records: ${store.files.size}`);

  const t1 = performance.now();
  const emu = await startEmulator({ seed: 'large', large, quiet: true, rateLimit: { count: 0, windowSeconds: 300 } });
  console.log(`start_ms: ${(performance.now() - t1).toFixed(0)}`);
  try {
    const tokenRes = await fetch(
      `${emu.url}/oauth/token?grant_type=password&client_id=portal-mobile&username=demo&password=demo`,
    );
    const { access_token: token } = (await tokenRes.json()) as { access_token: string };
    const headers = { Authorization: `Bearer ${token}` };
    const groups = (await (await fetch(`${emu.url}/v2/accounts/1/groups?size=1`, { headers })).json()) as Array<{
      id: number;
      name: string;
    }>;
    const bulk = groups.find((g) => g.name === 'bulk') ?? groups[0];
    if (!bulk) throw new Error('no bulk group');

    const t2 = performance.now();
    let records = 0;
    let pages = 0;
    const seen = new Set<number>();
    for (let page = 1; page <= 10_000; page++) {
      const res = await fetch(`${emu.url}/v2/accounts/1/groups/${bulk.id}/files?page=${page}&size=100`, { headers });
      const body = (await res.json()) as FilePage;
      pages++;
      records += body.page.length;
      for (const f of body.page) seen.add(f.id);
      if (!body.nextPage) break;
    }
    console.log(`page_all_root_files_ms: ${(performance.now() - t2).toFixed(0)}`);
    console.log(`pages: ${pages}`);
    console.log(`records_paged: ${records}`);
    console.log(`distinct_records: ${seen.size}`);

    const t3 = performance.now();
    let members = 0;
    for (let page = 1; page <= 10_000; page++) {
      const res = await fetch(`${emu.url}/v3/accounts/1/members?page=${page}&size=100`, { headers });
      const body = (await res.json()) as { items: unknown[]; nextPage: boolean };
      members += body.items.length;
      if (!body.nextPage) break;
    }
    console.log(`page_all_members_ms: ${(performance.now() - t3).toFixed(0)}`);
    console.log(`members_paged: ${members}`);
  } finally {
    await emu.stop();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
