/**
 * How an upload reports its run: a line of progress as it goes (files done, the plan's size, the time left once the
 * engine knows it), then how many files landed, the first failure (each one in the Portal log) and what was not sent.
 */
import * as vscode from 'vscode';
import type { RunProgress } from '../../../engine/runner';
import type { UploadUnit } from '../../../engine/uploads/kind';
import type { UploadPlan } from '../../../engine/uploads/plan';
import type { UploadResult } from '../../../engine/uploads/run';
import { count, humanSize } from '../../../shared/format';
import type { Progress, Ui } from '../../../ui/ui';
import type { UploadPlace } from './place';

export function meter(progress: Progress, plan: UploadPlan): (p: RunProgress<UploadUnit>) => void {
  return (p) => {
    const left = p.etaMs === undefined ? '' : ` · ${vscode.l10n.t('about {0} s left', Math.ceil(p.etaMs / 1000))}`;
    progress.report({
      increment: 100 / Math.max(1, p.total),
      message: `${vscode.l10n.t('{0} of {1} files', count(p.done), count(p.total))} (${humanSize(plan.bytes)})${left}`,
    });
  };
}

export function tell(ui: Ui, log: vscode.LogOutputChannel, place: UploadPlace, r: UploadResult): void {
  const outcomes = [...r.outcomes.values()];
  const done = outcomes.filter((o) => o.result === 'done').length;
  const failed = outcomes.filter((o) => o.result === 'failed');
  for (const f of failed) log.warn(`upload: ${f.message}`);
  const notStarted = r.units.length - outcomes.length;
  const parts = [vscode.l10n.t('{0} of {1} files uploaded to {2}.', count(done), count(r.units.length), place.label)];
  if (failed.length > 0)
    parts.push(
      vscode.l10n.t('{0} failed (see the Portal log), the first: {1}', count(failed.length), failed[0]?.message ?? ''),
    );
  if (notStarted > 0) parts.push(vscode.l10n.t('{0} not sent.', count(notStarted)));
  ui.notify(failed.length > 0 || notStarted > 0 ? 'warning' : 'info', parts.join(' '));
}
