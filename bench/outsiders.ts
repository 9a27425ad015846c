// Figures of the access matrix's guests, invitations and sign-ins (src/features/members/access/outsiders), against
// the `large` seed with 5,000 guest shares, 500 invitations and 30,000 sign-in events of its 20,000 members, at 50 ms
// latency, through the client and its request budget:
//
//   guests_read_requests         GET /v3/shares requests for the organisation's guest shares (goal: one per page)
//   guests_read_pages            the pages those shares fill at the largest page size (100)
//   guests_read_other_requests   the rest of the read: invitations' pages, the group list, the record paths resolved
//   guests_read_s                seconds for the whole read
//   audit_read_ratio             audit requests sent for the sign-ins of 20,000 members against the floor, the pages
//                                the events fill at 100 a page (goal ≤ 1.1)
//   audit_read_429s              requests the portal refused for the rate (goal 0)
//   audit_read_s                 seconds for the sign-ins
import { PortalClient } from '../src/api';
import { readOutsiders, readSignIns } from '../src/features/members/access/outsiders/outsidersRead';
import { startEmulator } from '../test/emulator';
import type { Benchmark, Figure } from './types';

const SHARES = 5_000;
const INVITES = 500;
const SIGN_INS = 30_000;
const PAGE = 100;

async function run(): Promise<Figure[]> {
  const emu = await startEmulator({
    port: 0,
    seed: 'large',
    large: { guestShares: SHARES, invites: INVITES, signIns: SIGN_INS },
    latencyMs: 50,
    quiet: true,
    tokenLifetimeSeconds: 86_400,
  });
  const client = new PortalClient({ baseUrl: emu.url, service: 'portal' });
  try {
    await client.signIn({ kind: 'password', username: 'demo', password: 'demo' });
    const accountId = (await client.v3.accounts.list())[0]?.id ?? 1;
    const signal = new AbortController().signal;
    emu.resetStats();
    let t0 = performance.now();
    const record = await readOutsiders(client, accountId, signal);
    const guestsS = (performance.now() - t0) / 1000;
    const afterGuests = emu.stats();
    const shares = Array.isArray(record.shares) ? record.shares.length : 0;
    if (shares !== SHARES) throw new Error(`read ${shares} shares`);
    const sharesRequests = afterGuests.byRoute['GET /v3/shares'] ?? 0;
    const total = Object.values(afterGuests.byRoute).reduce((a, b) => a + (b ?? 0), 0);
    emu.resetStats();
    t0 = performance.now();
    const signIns = await readSignIns(client, accountId, signal);
    const auditS = (performance.now() - t0) / 1000;
    if (signIns.kind !== 'read' || !signIns.complete) throw new Error(`sign-ins: ${signIns.kind}`);
    const stats = emu.stats();
    const auditRequests = stats.byRoute['GET /v3/audit'] ?? 0;
    return [
      { name: 'guests_read_requests', value: sharesRequests },
      { name: 'guests_read_pages', value: Math.ceil(SHARES / PAGE) },
      { name: 'guests_read_other_requests', value: total - sharesRequests },
      { name: 'guests_read_s', value: guestsS },
      { name: 'audit_read_ratio', value: auditRequests / Math.ceil(SIGN_INS / PAGE) },
      { name: 'audit_read_429s', value: stats.rateLimited },
      { name: 'audit_read_s', value: auditS },
    ];
  } finally {
    client.close();
    await emu.stop();
  }
}

export const outsidersBenchmarks: Benchmark[] = [
  {
    name: 'outsiders',
    figures: [
      'guests_read_requests',
      'guests_read_pages',
      'guests_read_other_requests',
      'guests_read_s',
      'audit_read_ratio',
      'audit_read_429s',
      'audit_read_s',
    ],
    run,
  },
];
