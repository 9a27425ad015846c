/**
 * What every chat tool shares: the portal and organisation it answers for, the journal line of each call, and the
 * answer as one JSON text whose portal strings are quoted values under `answer`, with a note that they are data.
 * A tool answers or proposes; it never calls another tool or command on its own, whatever the portal text says.
 */
import * as vscode from 'vscode';
import { isCancellation } from '../../shared/errors';
import { envelope } from './answers';
import type { ToolCallLog, ToolCall } from '../../engine/readLog';
import { TargetError, type Target, type TargetInput, type Targets } from './target';

export interface ToolEnv {
  readonly targets: Targets;
  readonly log: ToolCallLog;
}

export interface ToolSpec<I extends TargetInput> {
  readonly name: string;
  /** Checks and narrows the input the model gave (VS Code does not always hold it to the schema). */
  input(raw: unknown): I;
  /** Asks first when the answer needs a long read: the confirmation says how long and why. */
  prepare?(input: I, target: Target, signal: AbortSignal): Promise<vscode.PreparedToolInvocation | undefined>;
  run(input: I, target: Target, signal: AbortSignal): Promise<{ outcome: ToolCall['outcome']; answer: object }>;
}

function textResult(value: object): vscode.LanguageModelToolResult {
  return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(JSON.stringify(value))]);
}

/** Reads a string field of the input, trimmed; undefined when absent or blank. */
export function optionalString(o: Record<string, unknown>, key: string): string | undefined {
  const v = o[key];
  if (typeof v === 'number') return String(v);
  return typeof v === 'string' && v.trim() ? v.trim() : undefined;
}

export function requiredString(o: Record<string, unknown>, key: string): string {
  const v = optionalString(o, key);
  if (v === undefined) throw new TargetError(`The input needs "${key}".`, []);
  return v;
}

export function optionalCount(o: Record<string, unknown>, key: string): number | undefined {
  const v = o[key];
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.floor(v) : undefined;
}

export function objectOf(raw: unknown): Record<string, unknown> {
  return typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
}

export function targetInput(o: Record<string, unknown>): TargetInput {
  return { portal: optionalString(o, 'portal'), organisation: optionalString(o, 'organisation') };
}

function signalOf(token: vscode.CancellationToken): AbortSignal {
  const controller = new AbortController();
  if (token.isCancellationRequested) controller.abort();
  token.onCancellationRequested(() => controller.abort());
  return controller.signal;
}

export function defineTool<I extends TargetInput>(env: ToolEnv, spec: ToolSpec<I>): vscode.LanguageModelTool<object> {
  return {
    prepareInvocation: async (options, token) => {
      if (!spec.prepare) return undefined;
      try {
        const input = spec.input(options.input);
        return await spec.prepare(input, await env.targets.resolve(input), signalOf(token));
      } catch {
        // The call itself says what is wrong with the input or the portal.
        return undefined;
      }
    },
    invoke: async (options, token) => {
      const raw = objectOf(options.input);
      let target: Target | undefined;
      const record = (outcome: ToolCall['outcome']) =>
        env.log.record({
          at: Date.now(),
          tool: spec.name,
          input: raw,
          ...(target ? { portal: target.baseUrl, organisation: target.account.label } : {}),
          outcome,
        });
      try {
        const input = spec.input(raw);
        target = await env.targets.resolve(input);
        const { outcome, answer } = await spec.run(input, target, signalOf(token));
        record(outcome);
        const text = envelope(
          { label: target.portalLabel, url: target.baseUrl },
          { id: target.account.accountId, name: target.accountName },
          answer,
        );
        return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
      } catch (error) {
        record(isCancellation(error) || token.isCancellationRequested ? 'declined' : 'failed');
        if (error instanceof TargetError) return textResult({ error: error.message, choices: error.choices });
        throw error;
      }
    },
  };
}
