// Faults on demand. Rules are checked in order for each API request (never for /__emulator/):
// every firing latency rule adds its delay; the first firing terminal rule (status, rate-limit,
// reset, huge-body, error-body, ignore-writes) answers instead of the handler; the first firing body rule
// (truncated-json, malformed-json, slow-body, drip, oversized-page) mangles the handler's answer.
import { ERROR_SHAPES } from './error-shapes';
import { MAX_HUGE_BODY_BYTES } from './fault-streams';
import { badRequest, type FieldError } from './http';
import { mulberry32, type Rng } from './prng';
import type { FaultKind, FaultRule } from './types';
import { isPlainObject } from './validate';

const KINDS: readonly FaultKind[] = [
  'status',
  'rate-limit',
  'truncated-json',
  'malformed-json',
  'reset',
  'slow-body',
  'latency',
  'huge-body',
  'drip',
  'oversized-page',
  'error-body',
  'ignore-writes',
];
const TERMINAL: readonly FaultKind[] = ['status', 'rate-limit', 'reset', 'huge-body', 'error-body', 'ignore-writes'];
const MAX_DELAY_MS = 120_000;

export interface FaultDecision {
  delayMs: number;
  terminal?: FaultRule;
  body?: FaultRule;
}

interface ActiveRule {
  rule: FaultRule;
  remaining: number | undefined;
}

/** Same seed every time rules are set, so a share of 0.3 fails the same requests on every run. */
const FAULT_SEED = 0xfa017;

export class Faults {
  private active: ActiveRule[] = [];
  private rng: Rng = mulberry32(FAULT_SEED);

  set(rules: readonly FaultRule[]): void {
    this.active = rules.map((rule) => ({ rule: { ...rule }, remaining: rule.count }));
    this.rng = mulberry32(FAULT_SEED);
  }

  clear(): void {
    this.active = [];
  }

  rules(): FaultRule[] {
    return this.active.map((a) => ({ ...a.rule, ...(a.remaining !== undefined ? { count: a.remaining } : {}) }));
  }

  decide(method: string, path: string): FaultDecision {
    const decision: FaultDecision = { delayMs: 0 };
    for (const a of [...this.active]) {
      const r = a.rule;
      if (r.method && r.method.toUpperCase() !== method) continue;
      if (r.path && (r.exactPath ? path !== r.path : !path.startsWith(r.path))) continue;
      // A read has nothing to ignore, so it neither fires the rule nor uses up its count.
      if (r.kind === 'ignore-writes' && method === 'GET') continue;
      const isTerminal = TERMINAL.includes(r.kind);
      const isBody = !isTerminal && r.kind !== 'latency';
      if ((isTerminal && decision.terminal) || (isBody && decision.body)) continue;
      if (this.rng() >= (r.share ?? 1)) continue;
      if (a.remaining !== undefined && --a.remaining <= 0) this.active = this.active.filter((x) => x !== a);
      if (r.kind === 'latency') decision.delayMs += (r.delayMs ?? 0) + Math.floor(this.rng() * (r.jitterMs ?? 0));
      else if (isTerminal) decision.terminal = r;
      else decision.body = r;
    }
    return decision;
  }
}

/** Checks a rules array from the control endpoint; throws a 400 listing every problem. */
export function parseRules(input: unknown): FaultRule[] {
  if (!Array.isArray(input))
    throw badRequest('rules must be an array', [{ field: 'rules', message: 'must be an array' }]);
  const errors: FieldError[] = [];
  const rules = input.map((raw, i): FaultRule => {
    const at = (f: string): string => `rules[${i}].${f}`;
    if (!isPlainObject(raw)) {
      errors.push({ field: `rules[${i}]`, message: 'must be an object' });
      return { kind: 'latency' };
    }
    const kind = KINDS.find((k) => k === raw.kind);
    if (!kind) errors.push({ field: at('kind'), message: `must be one of ${KINDS.join(', ')}` });
    const rule: FaultRule = { kind: kind ?? 'latency' };
    const num = (
      name: 'retryAfterSeconds' | 'share' | 'count' | 'delayMs' | 'jitterMs' | 'bytes' | 'factor',
      min: number,
      max: number,
      integer: boolean,
    ): void => {
      const v = raw[name];
      if (v === undefined) return;
      if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max || (integer && !Number.isInteger(v))) {
        errors.push({ field: at(name), message: `must be a${integer ? ' whole' : ''} number from ${min} to ${max}` });
      } else rule[name] = v;
    };
    num('retryAfterSeconds', 1, 86_400, true);
    num('share', 0, 1, false);
    num('count', 1, 1_000_000, true);
    num('delayMs', 0, MAX_DELAY_MS, true);
    num('jitterMs', 0, MAX_DELAY_MS, true);
    num('bytes', 0, MAX_HUGE_BODY_BYTES, true);
    num('factor', 2, 1000, true);
    readStatus(raw.status, kind, at('status'), rule, errors);
    if (kind === 'huge-body' && rule.bytes === undefined && raw.bytes === undefined)
      errors.push({ field: at('bytes'), message: 'is required for huge-body' });
    if (raw.exactPath !== undefined) {
      if (typeof raw.exactPath === 'boolean') rule.exactPath = raw.exactPath;
      else errors.push({ field: at('exactPath'), message: 'must be true or false' });
    }
    if (raw.contentLength !== undefined) {
      if (typeof raw.contentLength === 'boolean') rule.contentLength = raw.contentLength;
      else errors.push({ field: at('contentLength'), message: 'must be true or false' });
    }
    if (raw.shape !== undefined) {
      const shape = ERROR_SHAPES.find((s) => s === raw.shape);
      if (shape) rule.shape = shape;
      else errors.push({ field: at('shape'), message: `must be one of ${ERROR_SHAPES.join(', ')}` });
    }
    for (const name of ['path', 'method'] as const) {
      const v = raw[name];
      if (v === undefined) continue;
      if (typeof v === 'string') rule[name] = v;
      else errors.push({ field: at(name), message: 'must be a string' });
    }
    return rule;
  });
  if (errors.length > 0) throw badRequest(`Invalid fault rules: ${errors[0]?.field} ${errors[0]?.message}`, errors);
  return rules;
}

/** `status` answers 500 or 503 (JSON, with the spec's own error codes); `error-body` any 4xx or 5xx. */
function readStatus(
  raw: unknown,
  kind: FaultKind | undefined,
  field: string,
  rule: FaultRule,
  errors: FieldError[],
): void {
  if (raw === undefined) return;
  if (kind === 'error-body') {
    if (typeof raw === 'number' && Number.isInteger(raw) && raw >= 400 && raw <= 599) rule.status = raw;
    else errors.push({ field, message: 'must be a status from 400 to 599' });
  } else if (raw === 500 || raw === 503) rule.status = raw;
  else errors.push({ field, message: 'must be 500 or 503' });
}
