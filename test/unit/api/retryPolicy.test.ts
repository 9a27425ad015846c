// The retry policy as a table: what happened to an attempt, how many retries were spent → what the client does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  PortalError,
  firstTry,
  retryPolicy,
  type Outcome,
  type RetryLimits,
  type RetryState,
  type Step,
} from '../../../src/api';

const LIMITS: RetryLimits = {
  attempts: 3,
  rateLimitAttempts: 4,
  backoffMs: 100,
  maxBackoffMs: 300,
  maxRetryAfterMs: 60_000,
  defaultRetryAfterMs: 1000,
};
const HALF = () => 0.5; // jitter ×1: the backoff is exactly the base

const err = (kind: PortalError['kind'], status?: number) =>
  new PortalError({ kind, endpoint: 'GET /x', message: kind, ...(status !== undefined ? { status } : {}) });
const http = (status: number, retryAfterMs?: number): Outcome => ({
  kind: 'http',
  status,
  retryAfterMs,
  error: err(status === 429 ? 'rate-limited' : status >= 500 ? 'server' : 'invalid-input', status),
});
const failure = (kind: PortalError['kind'], transient: boolean, neverSent: boolean): Outcome => ({
  kind: 'failure',
  error: err(kind),
  transient,
  neverSent,
});

const GET = firstTry(true, LIMITS);
const POST = firstTry(false, LIMITS);
const spent = (s: RetryState, more: Partial<RetryState>): RetryState => ({ ...s, ...more });

/** What the step boils down to, for comparing with the table. */
function summary(step: Step): string {
  switch (step.action) {
    case 'throw':
      return `throw ${step.error.kind}`;
    case 'wait-and-retry':
      return `wait ${step.ms}`;
    case 'pause-all-and-retry':
      return `pause ${step.ms}`;
    default:
      return step.action;
  }
}

const TABLE: Array<[string, Outcome, RetryState, string]> = [
  ['2xx', { kind: 'ok' }, GET, 'return'],
  ['401, first time', { kind: 'unauthorized', token: 't' }, GET, 'renew-token'],
  ['401, first time (POST too)', { kind: 'unauthorized', token: 't' }, POST, 'renew-token'],
  ['401 after a renewal', { kind: 'unauthorized', token: 't' }, spent(GET, { renewed: true }), 'signed-out'],
  ['429 with Retry-After 2 s', http(429, 2000), GET, 'pause 2000'],
  ['429 on a POST (not processed)', http(429, 2000), POST, 'pause 2000'],
  ['429 without Retry-After: the default', http(429), GET, 'pause 1000'],
  ['429 without Retry-After, third time: doubled twice', http(429), spent(GET, { rateWaits: 2 }), 'pause 4000'],
  ['429 when the waits are spent', http(429, 10), spent(GET, { rateWaits: 3 }), 'throw rate-limited'],
  ['429 asking longer than the client waits', http(429, 120_000), GET, 'throw rate-limited'],
  ['503 on a GET', http(503, 500), GET, 'pause 500'],
  ['503 on a POST', http(503, 500), POST, 'throw server'],
  ['500 on a GET', http(500), GET, 'wait 100'],
  ['500 on a GET, second failure: doubled', http(500), spent(GET, { failures: 1 }), 'wait 200'],
  [
    '500 on a GET, capped backoff',
    http(500),
    spent({ ...GET, limits: { ...LIMITS, attempts: 9 } }, { failures: 5 }),
    'wait 300',
  ],
  ['500 on a GET when the tries are spent', http(500), spent(GET, { failures: 2 }), 'throw server'],
  ['500 on a POST', http(500), POST, 'throw server'],
  ['404', http(404), GET, 'throw invalid-input'],
  ['connection reset on a GET', failure('network', true, false), GET, 'wait 100'],
  ['connection reset on a POST (it may have been processed)', failure('network', true, false), POST, 'throw network'],
  ['connection refused on a POST (it never left)', failure('network', true, true), POST, 'wait 100'],
  ['timeout (deadline) on a GET', failure('timeout', true, false), GET, 'wait 100'],
  ['timeout (deadline) on a PATCH', failure('timeout', true, false), POST, 'throw timeout'],
  ['an answer over the size cap', failure('invalid-response', false, false), GET, 'throw invalid-response'],
  ['certificate refused', failure('tls', false, true), GET, 'throw tls'],
  [
    'certificate refused on a POST (never sent, but waiting will not help)',
    failure('tls', false, true),
    POST,
    'throw tls',
  ],
  ['cancelled', failure('cancelled', false, true), GET, 'throw cancelled'],
];

for (const [name, outcome, state, expected] of TABLE) {
  void test(`retry policy: ${name} → ${expected}`, () => {
    assert.equal(summary(retryPolicy(outcome, state, HALF)), expected);
  });
}

void test('retry policy: the counters only grow, so every call ends', () => {
  let state = GET;
  let steps = 0;
  // A server that answers 429, 500 and 401 in turn for ever.
  const outcomes: Outcome[] = [http(429, 10), http(500), { kind: 'unauthorized', token: 't' }];
  for (; steps < 100; steps++) {
    const step = retryPolicy(outcomes[steps % 3] as Outcome, state, HALF);
    if (step.action === 'throw' || step.action === 'signed-out' || step.action === 'return') break;
    state = step.state;
  }
  assert.ok(steps < LIMITS.attempts + LIMITS.rateLimitAttempts + 1, `ended after ${steps} retries`);
});

void test('retry policy: jitter spreads the backoff between ×0.5 and ×1.5', () => {
  const low = retryPolicy(http(500), GET, () => 0);
  const high = retryPolicy(http(500), GET, () => 0.999);
  assert.deepEqual([summary(low), summary(high)], ['wait 50', 'wait 150']);
});
