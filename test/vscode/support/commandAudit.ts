/**
 * Which of the extension's commands the suites of this phase really ran. Every suite runs a command through
 * `vscode.commands.executeCommand` (or `runCommands`, as a context menu does), so that is where it is noted; no
 * hook in the extension is needed. A run counts only when it finished without a withheld answer (a dismissed
 * question, a declined confirmation, a cancelled progress) and without an error notification, as seen by the
 * scripted Ui in use: a test that only proves a command asks, or fails, has not shown that it works.
 */
import * as vscode from 'vscode';

/** What the scripted Ui in use has seen so far; read before and after a run. */
export interface ObservedUi {
  /** Answers that ended a question without a choice. */
  readonly withheld: number;
  readonly told: ReadonlyArray<{ readonly severity: string }>;
}

export interface CommandRuns {
  /** Commands that ran to the end at least once. */
  readonly ran: ReadonlySet<string>;
  /** Commands that were run, but never to the end, with the reason of the last try. */
  readonly tried: ReadonlyMap<string, string>;
}

const ran = new Set<string>();
const tried = new Map<string, string>();
let observed: ObservedUi | undefined;

/** The scripted Ui a test installed (withUi), or undefined when VS Code's is back. */
export function observeUi(ui: ObservedUi | undefined): void {
  observed = ui;
}

export function commandRuns(): CommandRuns {
  return { ran, tried };
}

/** The commands a `runCommands` argument names ({ commands: [{ command, args }] } or a list of ids). */
function innerCommands(arg: unknown): string[] {
  const list = (arg as { commands?: unknown } | undefined)?.commands;
  if (!Array.isArray(list)) return [];
  return list.flatMap((c: unknown) => {
    if (typeof c === 'string') return [c];
    const id = (c as { command?: unknown } | null)?.command;
    return typeof id === 'string' ? [id] : [];
  });
}

interface Mark {
  readonly ui: ObservedUi | undefined;
  readonly withheld: number;
  readonly errors: number;
}

const errorsOf = (ui: ObservedUi | undefined): number => ui?.told.filter((t) => t.severity === 'error').length ?? 0;

function mark(): Mark {
  return { ui: observed, withheld: observed?.withheld ?? 0, errors: errorsOf(observed) };
}

function settle(ids: readonly string[], before: Mark, threw: boolean): void {
  const ui = before.ui;
  const why = threw
    ? 'it threw'
    : ui && ui.withheld > before.withheld
      ? 'a question was dismissed or declined'
      : errorsOf(ui) > before.errors
        ? 'it showed an error'
        : undefined;
  for (const id of ids) {
    if (!why) ran.add(id);
    else tried.set(id, why);
  }
}

/** Installed once per bundle, when the suites load (before any test runs). */
function install(): void {
  const commands = vscode.commands as { executeCommand: typeof vscode.commands.executeCommand };
  const original = commands.executeCommand.bind(vscode.commands);
  commands.executeCommand = (<T>(id: string, ...rest: unknown[]): Thenable<T> => {
    const ids = (id === 'runCommands' ? innerCommands(rest[0]) : [id]).filter((c) => c.startsWith('portal.'));
    if (ids.length === 0) return original<T>(id, ...rest);
    const before = mark();
    return Promise.resolve(original<T>(id, ...rest)).then(
      (value) => {
        settle(ids, before, false);
        return value;
      },
      (error: unknown) => {
        settle(ids, before, true);
        throw error;
      },
    );
  }) as typeof vscode.commands.executeCommand;
}

install();
