/**
 * How long a number of requests takes within the request budget. The client's scheduler lets `limit` requests run
 * in any window of `windowMs`; what is free now goes at the speed of the connection (`concurrency` at a time, each
 * taking `latencyMs`), and every further `limit` requests wait for a window to pass. So a large read is bounded by
 * the budget, not by the network, and the estimate says which. Pure.
 */

export interface BudgetNow {
  readonly limit: number;
  readonly windowMs: number;
  /** Requests counted in the current window. */
  readonly used: number;
}

export function estimateMs(requests: number, budget: BudgetNow, latencyMs: number, concurrency: number): number {
  if (requests <= 0) return 0;
  const width = Math.max(1, Math.floor(concurrency));
  const burst = (n: number) => Math.ceil(n / width) * latencyMs;
  const free = Math.max(0, budget.limit - budget.used);
  if (requests <= free) return burst(requests);
  const beyond = requests - free;
  const windows = Math.ceil(beyond / budget.limit);
  const last = beyond - (windows - 1) * budget.limit;
  return windows * budget.windowMs + burst(last);
}

/** True when the budget, not the connection, sets the pace of these requests. */
export function budgetBound(requests: number, budget: BudgetNow): boolean {
  return requests > Math.max(0, budget.limit - budget.used);
}
