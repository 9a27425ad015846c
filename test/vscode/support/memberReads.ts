/**
 * How many times the shared emulator answered each member's v2 read. Its stats count by route only, so each member
 * gets a latency rule on its own read path (which also slows the read down by `delayMs`); the control endpoint
 * reports what is left of each rule's `count`, and the difference is the member's reads. A path that is a prefix of
 * another (`demo` of `demo-2fa`) fires on both, which `counts()` takes back out.
 */
import { control } from './portalHttp';

const START = 1_000_000;

interface Rule {
  kind: string;
  method?: string;
  path?: string;
  delayMs?: number;
  count?: number;
}

const readPath = (accountId: number, username: string): string =>
  `/v2/accounts/${accountId}/members/${encodeURIComponent(username)}`;

export class MemberReadCounter {
  private constructor(
    private readonly url: string,
    private readonly paths: ReadonlyMap<string, string>,
  ) {}

  /** Starts counting (and replaces every fault rule of the emulator). */
  static async start(
    url: string,
    accountId: number,
    usernames: readonly string[],
    delayMs: (username: string) => number = () => 0,
  ): Promise<MemberReadCounter> {
    const paths = new Map(usernames.map((u) => [u, readPath(accountId, u)]));
    const rules: Rule[] = usernames.map((u) => ({
      kind: 'latency',
      method: 'GET',
      path: paths.get(u),
      delayMs: delayMs(u),
      count: START,
    }));
    await control(url, 'POST', 'faults', { rules });
    return new MemberReadCounter(url, paths);
  }

  /** Reads so far, per username. */
  async counts(): Promise<Map<string, number>> {
    const { rules } = (await control(this.url, 'GET', 'faults')) as { rules: Rule[] };
    const fired = new Map<string, number>();
    for (const [u, p] of this.paths) {
      const rule = rules.find((r) => r.path === p);
      fired.set(u, START - (rule?.count ?? START));
    }
    // Longest paths first: a path's own reads are what it fired on less the reads of the paths it is a prefix of.
    const byLength = [...this.paths].sort((a, b) => b[1].length - a[1].length);
    const own = new Map<string, number>();
    for (const [u, p] of byLength) {
      let n = fired.get(u) ?? 0;
      for (const [v, q] of this.paths) if (v !== u && q.startsWith(p)) n -= own.get(v) ?? 0;
      own.set(u, n);
    }
    return own;
  }

  async stop(): Promise<void> {
    await control(this.url, 'DELETE', 'faults');
  }
}
