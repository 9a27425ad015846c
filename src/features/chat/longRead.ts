/**
 * The question before a long read: a tool whose reads would take longer than a few seconds within the request
 * budget asks first, through its prepared invocation's confirmation, saying how many requests, how long and why.
 */
import * as vscode from 'vscode';
import type { AccessHandle, BudgetEstimate } from '../contracts';
import type { Target } from './target';

/** A read that takes longer than this asks first. */
export const CONFIRM_ABOVE_MS = 5_000;

/** Minutes of the budget's window, for the confirmation's words. */
export function windowMinutes(e: BudgetEstimate): number {
  return Math.max(1, Math.round(e.windowMs / 60_000));
}

/**
 * The prepared invocation for `requests` requests: with a confirmation (`title`, and the `message` said of the
 * estimate) when they would take longer than CONFIRM_ABOVE_MS, else only the words shown while the tool runs.
 */
export function askBeforeLongRead(
  store: AccessHandle,
  target: Target,
  requests: number,
  words: { readonly running: string; readonly title: string; readonly message: (e: BudgetEstimate) => string },
): vscode.PreparedToolInvocation {
  const estimate = store.estimate(target.account, requests);
  if (estimate.etaMs <= CONFIRM_ABOVE_MS) return { invocationMessage: words.running };
  return {
    invocationMessage: words.running,
    confirmationMessages: { title: words.title, message: new vscode.MarkdownString(words.message(estimate)) },
  };
}
