// Create / edit group: names, enabled components, switches and branding colours.
import * as l10n from '@vscode/l10n';
import type { VscodeCheckbox } from '@vscode-elements/elements/dist/vscode-checkbox/vscode-checkbox.js';
import type { VscodeTextfield } from '@vscode-elements/elements/dist/vscode-textfield/vscode-textfield.js';
import { COLOUR, type GroupState, type GroupValues } from './group.protocol';
import { el, safeId } from '../../../forms/page/dom';
import { checkboxField, section, textField, textFieldOf } from '../../../forms/page/fields';
import { FormView, type Rendered } from '../../../forms/page/form';

type Form = FormView<GroupState, GroupValues>;

/** A colour field with a live swatch; the swatch is painted through CSSOM (allowed by the page's CSP). */
function colourField(
  form: Form,
  id: string,
  label: string,
  value: string,
): { node: HTMLElement; control: VscodeTextfield } {
  const f = textField(form, {
    id,
    label,
    value,
    maxLength: 7,
    placeholder: '#1e40af',
    hint: l10n.t("A hex colour such as #1e40af; empty keeps the portal's default."),
  });
  const swatch = el('span', { classes: ['swatch'], attrs: { 'aria-hidden': 'true' } });
  const paint = (): void => {
    const v = f.control.value.trim();
    swatch.style.backgroundColor = COLOUR.test(v) && v ? v : 'transparent';
  };
  f.control.addEventListener('input', paint);
  paint();
  f.node.querySelector('vscode-label')?.append(swatch);
  return f;
}

/** The group's unique name and the name people see. */
function nameFields(form: Form, values: GroupValues) {
  const name = textFieldOf(form, values, 'name', l10n.t('Name'), {
    required: true,
    maxLength: 100,
    hint: l10n.t('Unique in the organisation; used in addresses.'),
  });
  const friendlyName = textFieldOf(form, values, 'friendlyName', l10n.t('Friendly name'), {
    required: true,
    maxLength: 200,
    hint: l10n.t('The name people see.'),
  });
  return { name, friendlyName };
}

/** One checkbox per component the organisation offers, in a fieldset that carries the field's error. */
function componentsField(form: Form, state: GroupState, values: GroupValues) {
  const boxes = state.components.map((c) => ({
    name: c.name,
    box: el('vscode-checkbox', {
      id: safeId('component', c.name),
      label: c.label,
      checked: values.components.includes(c.name),
    }),
  }));
  const group = el(
    'fieldset',
    { classes: ['plain'] },
    el('legend', { textContent: l10n.t('Enabled components') }),
    ...boxes.map((c) => el('div', {}, c.box)),
  );
  const error = form.field('components', group as HTMLElement & { invalid?: boolean });
  return { boxes, group, error };
}

/** The group's on/off settings. */
function switchFields(form: Form, state: GroupState, values: GroupValues) {
  const chat = checkboxField(form, { id: 'chat', label: l10n.t('Allow chat'), checked: values.chat });
  const comments = checkboxField(form, {
    id: 'comments',
    label: l10n.t('Allow comments on content'),
    checked: values.comments,
  });
  const widgets = checkboxField(form, {
    id: 'widgets',
    label: l10n.t('Show the home widgets'),
    checked: values.widgets,
    ...(state.widgetsKnown
      ? {}
      : { hint: l10n.t('The portal did not report this setting; it is sent only if you change it.') }),
  });
  const accordion = checkboxField(form, {
    id: 'accordionWidgets',
    label: l10n.t('Show the Recent, Created by and I follow widgets'),
    checked: values.accordionWidgets,
  });
  return { chat, comments, widgets, accordion };
}

function renderGroup(form: Form, state: GroupState, values: GroupValues): Rendered<GroupValues> {
  const { name, friendlyName } = nameFields(form, values);
  const components = componentsField(form, state, values);
  const { chat, comments, widgets, accordion } = switchFields(form, state, values);
  const headerColor = colourField(form, 'headerColor', l10n.t('Header colour'), values.headerColor);
  const textColor = colourField(form, 'textColor', l10n.t('Text colour'), values.textColor);

  const checked = (f: { control: VscodeCheckbox }) => f.control.checked;
  const read = (): GroupValues => ({
    accountId: state.accountId,
    groupId: state.groupId,
    name: name.control.value,
    friendlyName: friendlyName.control.value,
    components: components.boxes.filter((c) => c.box.checked).map((c) => c.name),
    chat: checked(chat),
    comments: checked(comments),
    widgets: checked(widgets),
    accordionWidgets: checked(accordion),
    headerColor: headerColor.control.value.trim(),
    textColor: textColor.control.value.trim(),
  });

  const nodes = [
    el('h1', {
      textContent: state.mode === 'create' ? l10n.t('Create group') : l10n.t('Edit group {0}', values.friendlyName),
    }),
    // Without the organisation read the name is unknown; the notices say so.
    state.accountName ? el('p', { classes: ['subtitle'], textContent: l10n.t('In {0}', state.accountName) }) : null,
    name.node,
    friendlyName.node,
    section(l10n.t('Components'), components.group, components.error),
    section(l10n.t('Switches'), chat.node, comments.node, widgets.node, accordion.node),
    section(l10n.t('Branding'), el('div', { classes: ['row'] }, headerColor.node, textColor.node)),
    form.actions(),
  ];
  return { nodes, read };
}

/** Renders this form in the page the host opened; nothing of it runs for another form. */
export function startGroupPage(): void {
  new FormView<GroupState, GroupValues>({
    saveLabel: (s) => (s.mode === 'create' ? l10n.t('Create group') : l10n.t('Save')),
    draftKey: (s) => `group:${s.accountId}:${s.groupId}`,
    valuesOf: (s) => s.values,
    render: renderGroup,
  });
}
