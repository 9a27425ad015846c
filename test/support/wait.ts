/**
 * How long a test waits for a state before it fails: far beyond what any wait needs on a quiet machine, so a machine
 * busy with other work (two CPU-bound processes and a second test run beside this one) only makes a test slower,
 * never a failure. A passing test never waits this long; only a broken one does.
 */
export const PATIENCE_MS = 90_000;

/** Polls a condition every 25 ms until it holds; bounded, and the error says what was awaited. */
export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = PATIENCE_MS,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
