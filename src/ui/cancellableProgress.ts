/**
 * How a read or a write that a person waits for runs: under a progress notification with Cancel, whose signal the
 * task must follow.
 */
import type { Progress, ProgressOptions, Ui } from './ui';

export function cancellableProgress<R>(
  ui: Ui,
  id: ProgressOptions['id'],
  title: string,
  task: (progress: Progress, signal: AbortSignal) => Promise<R>,
): Promise<R> {
  return ui.progress({ id, title, where: 'notification', cancellable: true }, task);
}
