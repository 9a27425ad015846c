/**
 * Show Access Reviews…: every review kept on this computer (organisation, date, state), newest first. A finished one
 * reopens read-only, after its evidence is checked against the digest written with it: an edit since is said plainly,
 * naming what changed. An unfinished one resumes.
 */
import * as vscode from 'vscode';
import { calendarDate } from '../../shared/format';
import { plain } from '../../shared/plainText';
import { answered, type PickItem, type Ui } from '../../ui/ui';
import type { ReviewHead } from './core/model';
import type { ReviewFiles } from './core/reviewFiles';

export interface ListedReview {
  readonly head: ReviewHead;
  readonly file: string;
}

function progressWords(h: ReviewHead): string {
  if (h.finishedAt === undefined) return vscode.l10n.t('in progress');
  if (h.applied) return vscode.l10n.t('finished {0}, applied', calendarDate(h.finishedAt));
  return vscode.l10n.t('finished {0}', calendarDate(h.finishedAt));
}

function item(r: ListedReview): PickItem<ListedReview> {
  const h = r.head;
  const what = h.scope ? vscode.l10n.t('{0}, group {1}', h.accountLabel, h.scope.label) : h.accountLabel;
  return {
    icon: h.finishedAt === undefined ? 'checklist' : 'pass',
    label: plain(what),
    description: `${calendarDate(h.startedAt)} · ${progressWords(h)}`,
    detail: plain(vscode.l10n.t('{0} · reviewer {1}', h.portalLabel, h.reviewer)),
    value: r,
  };
}

/** The review the user chooses; undefined when none is kept (said). */
export async function pickReview(ui: Ui, files: ReviewFiles): Promise<ListedReview | undefined> {
  const all = await files.list();
  if (all.length === 0) {
    ui.notify('info', vscode.l10n.t('No access review is kept on this computer.'));
    return undefined;
  }
  return answered(
    await ui.pick(all.map(item), {
      id: 'review.list',
      title: vscode.l10n.t('Access reviews'),
      placeHolder: vscode.l10n.t('Choose a review to open'),
      matchOnDescription: true,
    }),
  );
}

/** What no longer matches a finished review's digest, in words; undefined when all matches (or it is not finished). */
export async function tamperWords(files: ReviewFiles, head: ReviewHead): Promise<string | undefined> {
  if (head.finishedAt === undefined) return undefined;
  const changed = await files.verify(head);
  if (changed.length === 0) return undefined;
  const what = changed.includes('manifest') ? vscode.l10n.t('its manifest') : changed.join(', ');
  return vscode.l10n.t(
    'The evidence of this review no longer matches the digest written with it: {0} changed after the review finished.',
    what,
  );
}
