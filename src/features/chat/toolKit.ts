/**
 * What every chat tool shares: the portal and organisation it answers for, the journal line of each call, and the
 * answer as one JSON text whose portal strings are quoted values under `answer`, with a note that they are data.
 * A tool answers or proposes; it never calls another tool or command on its own, whatever the portal text says.
 * A failure is an answer too: its text can be the portal's, so it goes under `answer` like any other portal string,
 * never as an error VS Code hands the model outside the envelope.
 */
import * as vscode from 'vscode';
import { isPortalError } from '../../api/index';
import { errorMessage, isCancellation } from '../../shared/errors';
import { plain } from '../../shared/plainText';
import { envelope, UNTRUSTED_NOTE } from './answers';
import type { ToolCallLog, ToolCall } from '../../engine/readLog';
import { TargetError, type Target, type TargetInput, type Targets } from './target';

export interface ToolEnv {
  readonly targets: Targets;
  readonly log: ToolCallLog;
}

export interface ToolSpec<I extends object> {
  readonly name: string;
  /**
   * Checks and narrows the tool's own fields of the input the model gave (VS Code does not always hold it to the
   * schema); which portal and organisation it names, every tool reads alike.
   */
  input(o: Record<string, unknown>): I;
  /** Asks first when the answer needs a long read: the confirmation says how long and why. */
  prepare?(input: I, target: Target, signal: AbortSignal): Promise<vscode.PreparedToolInvocation | undefined>;
  run(input: I, target: Target, signal: AbortSignal): Promise<{ outcome: ToolCall['outcome']; answer: object }>;
}

function textResult(text: string): vscode.LanguageModelToolResult {
  return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
}

/** Longest error text an answer quotes: a portal's message is bounded already, this bounds ours around it. */
const ERROR_CHARS = 500;

/** A failed call's answer: in the envelope, with the portal and organisation when they were known by then. */
function failure(target: Target | undefined, error: unknown): string {
  const answer =
    error instanceof TargetError
      ? { error: plain(error.message, { maxLength: ERROR_CHARS }), choices: error.choices }
      : {
          error: plain(errorMessage(error), { maxLength: ERROR_CHARS }),
          ...(isPortalError(error) ? { kind: error.kind } : {}),
        };
  return target
    ? envelope(
        { label: target.portalLabel, url: target.baseUrl },
        { id: target.account.accountId, name: target.accountName },
        answer,
      )
    : JSON.stringify({ note: UNTRUSTED_NOTE, answer });
}

/**
 * The question when a tool's own could not be made (its cost read failed): without it a long read would run unasked,
 * so the call asks in general words. The failure's text is not shown; the call answers it if it fails again.
 */
function askWithoutEstimate(): vscode.PreparedToolInvocation {
  return {
    confirmationMessages: {
      title: vscode.l10n.t('Read from the portal?'),
      message: new vscode.MarkdownString(
        vscode.l10n.t(
          'How many requests this answer needs could not be worked out first, so it may read the portal for a long time, within the request budget. Nothing is written.',
        ),
      ),
    },
  };
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

/** A boolean field of the input: true only when it is true. */
export function optionalFlag(o: Record<string, unknown>, key: string): true | undefined {
  return o[key] === true ? true : undefined;
}

export function objectOf(raw: unknown): Record<string, unknown> {
  return typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
}

function targetInput(o: Record<string, unknown>): TargetInput {
  return { portal: optionalString(o, 'portal'), organisation: optionalString(o, 'organisation') };
}

function signalOf(token: vscode.CancellationToken): AbortSignal {
  const controller = new AbortController();
  if (token.isCancellationRequested) controller.abort();
  token.onCancellationRequested(() => controller.abort());
  return controller.signal;
}

export function defineTool<I extends object>(env: ToolEnv, spec: ToolSpec<I>): vscode.LanguageModelTool<object> {
  return {
    prepareInvocation: async (options, token) => {
      if (!spec.prepare) return undefined;
      const raw = objectOf(options.input);
      let input: I;
      try {
        input = spec.input(raw);
      } catch {
        // The call answers what is wrong with the input before it reads anything.
        return undefined;
      }
      try {
        return await spec.prepare(input, await env.targets.resolve(targetInput(raw)), signalOf(token));
      } catch (error) {
        // Which portal or organisation is meant: the call answers so, from the same lists, before any read.
        if (error instanceof TargetError) return undefined;
        return askWithoutEstimate();
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
        target = await env.targets.resolve(targetInput(raw));
        const { outcome, answer } = await spec.run(input, target, signalOf(token));
        record(outcome);
        const text = envelope(
          { label: target.portalLabel, url: target.baseUrl },
          { id: target.account.accountId, name: target.accountName },
          answer,
        );
        return textResult(text);
      } catch (error) {
        const cancelled =
          isCancellation(error) || error instanceof vscode.CancellationError || token.isCancellationRequested;
        record(cancelled ? 'declined' : 'failed');
        if (cancelled) throw new vscode.CancellationError();
        return textResult(failure(target, error));
      }
    },
  };
}
