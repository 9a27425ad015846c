// The record page: the record's name, what it is, its content and download one click away, then its details.
import * as l10n from '@vscode/l10n';
import type { RecordSection, RecordState } from './record.protocol';
import { el } from '../../../../forms/page/dom';
import { section } from '../../../../forms/page/fields';
import { FormView, type Rendered } from '../../../../forms/page/form';

/** Labelled values, each value set as text. */
function facts(s: RecordSection): HTMLElement {
  return el(
    'dl',
    { classes: ['kv'] },
    ...s.rows.flatMap(([label, value]) => [el('dt', { textContent: label }), el('dd', { textContent: value })]),
  );
}

function renderRecord(form: FormView<RecordState, null>, state: RecordState): Rendered<null> {
  const button = (id: 'openContent' | 'download', label: string, secondary: boolean): HTMLElement => {
    const b = el('vscode-button', { secondary, textContent: label, on: { click: () => form.send({ type: id }) } });
    b.id = id;
    return b;
  };
  const actions = state.isFolder
    ? form.actions()
    : form.actions(button('openContent', l10n.t('Open Content'), false), button('download', l10n.t('Download…'), true));
  const details = el(
    'details',
    { classes: ['details'] },
    el('summary', { textContent: l10n.t('Details') }),
    facts(state.details),
  );
  return {
    nodes: [
      el('h1', { textContent: state.title }),
      el('p', { classes: ['subtitle'], textContent: state.summary }),
      actions,
      ...state.sections.map((s) => section(s.title, facts(s))),
      details,
    ],
    read: () => null,
  };
}

/** Renders this page in the panel the host opened; nothing of it runs for another page. */
export function startRecordPage(): void {
  new FormView<RecordState, null>({
    draftKey: (s) => `record:${s.title}`,
    valuesOf: () => null,
    render: renderRecord,
  });
}
