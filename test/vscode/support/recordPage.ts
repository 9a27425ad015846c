import type { FormPanel } from '../../../src/forms/formPanel';
import type { RecordState } from '../../../src/features/records/documents/page/record.protocol';
import { features } from './tree';
import { waitFor } from '../../support/wait';

type RecordPanel = FormPanel<RecordState, null>;

/** The record pages open now. */
export async function recordPages(): Promise<RecordPanel[]> {
  return (await features()).forms.panels().filter((p): p is RecordPanel => p.kind === 'record');
}

/** What the record page titled `title` shows, once it is open and loaded. */
export async function recordPageState(title: string): Promise<RecordState> {
  let page: RecordPanel | undefined;
  await waitFor(async () => {
    page = (await recordPages()).find((p) => p.panel.title === title);
    return page !== undefined;
  }, `a record page titled ${title} is open`);
  return page!.whenLoaded();
}

/** One of the page's facts, by its label. */
export const recordFact = (state: RecordState, label: string): string | undefined =>
  state.sections.flatMap((s) => s.rows).find(([l]) => l === label)?.[1];
