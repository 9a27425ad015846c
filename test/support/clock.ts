/** A clock the test moves: a window or a lifetime is asserted in the portal's time, never in the machine's. */
export function testClock(): { now: () => number; advance: (ms: number) => void } {
  let t = 1_700_000_000_000;
  return { now: () => t, advance: (ms) => void (t += ms) };
}
