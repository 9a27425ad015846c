// Labelled controls. Every control gets a vscode-label (which also gives the control its accessible name)
// and an error line the host's field errors are written into.
import * as l10n from '@vscode/l10n';
import type { VscodeCheckbox } from '@vscode-elements/elements/dist/vscode-checkbox/vscode-checkbox.js';
import type { VscodeMultiSelect } from '@vscode-elements/elements/dist/vscode-multi-select/vscode-multi-select.js';
import type { VscodeSingleSelect } from '@vscode-elements/elements/dist/vscode-single-select/vscode-single-select.js';
import type { VscodeTextfield } from '@vscode-elements/elements/dist/vscode-textfield/vscode-textfield.js';
import type { Choice, FormStateBase } from '../protocol/common';
import { append, clear, el, REQUIRED_ATTR, type Child } from './dom';
import type { FormView } from './form';

type AnyForm = FormView<never, never> | FormView<FormStateBase, unknown>;

interface Common {
  id: string;
  label: string;
  hint?: string;
  /** Marks the label; the field shows as missing only once left empty or on save. */
  required?: boolean;
}

/** A control under its label, with its hint and its error line: what every field is, for a control of its own. */
export function labelledField(
  form: AnyForm,
  spec: Common,
  control: HTMLElement & { invalid?: boolean },
  extra?: Child,
): HTMLElement {
  const error = (form as FormView<FormStateBase, unknown>).field(spec.id, control);
  return el(
    'vscode-form-group',
    { variant: 'vertical' },
    el('vscode-label', { htmlFor: spec.id, textContent: spec.label, required: spec.required ?? false }),
    control,
    extra,
    spec.hint ? el('vscode-form-helper', {}, el('span', { classes: ['hint'], textContent: spec.hint })) : null,
    error,
  );
}

export function textField(
  form: AnyForm,
  spec: Common & TextOptions & { value: string },
): { node: HTMLElement; control: VscodeTextfield } {
  const control = el('vscode-textfield', { id: spec.id, value: spec.value, type: spec.type ?? 'text' });
  if (spec.maxLength !== undefined) control.maxLength = spec.maxLength;
  if (spec.required) {
    // Not `required` yet: the element would show the empty field as an error before anything was typed.
    control.setAttribute(REQUIRED_ATTR, '');
    control.setAttribute('aria-required', 'true');
    control.addEventListener('blur', () => (control.required = true), { once: true });
  }
  if (spec.placeholder) control.placeholder = spec.placeholder;
  if (spec.type === 'password') control.autocomplete = 'off';
  return { node: labelledField(form, spec, control), control };
}

/** What a text field may say besides its id, label and value. */
export interface TextOptions {
  type?: 'text' | 'password' | 'email' | 'tel';
  maxLength?: number;
  required?: boolean;
  placeholder?: string;
  hint?: string;
}

/**
 * A text field whose id is its value's key: the host's field errors and the values it sends name the same thing.
 * `values[key]` must be a string (`K` is taken from `key` alone, so `values` cannot widen it).
 */
export function textFieldOf<K extends string>(
  form: AnyForm,
  values: Readonly<Record<NoInfer<K>, string>>,
  key: K,
  label: string,
  options: TextOptions = {},
): { node: HTMLElement; control: VscodeTextfield } {
  return textField(form, { ...options, id: key, label, value: values[key] });
}

/** A drop-down whose id is its value's key, as `textFieldOf`; `values[key]` must be one of the choices' type. */
export function selectFieldOf<K extends string, T extends string | number>(
  form: AnyForm,
  values: Readonly<Record<NoInfer<K>, NoInfer<T>>>,
  key: K,
  label: string,
  choices: readonly Choice<T>[],
  options: Pick<Common, 'hint' | 'required'> = {},
): { node: HTMLElement; control: VscodeSingleSelect; read(): T } {
  return selectField(form, { ...options, id: key, label, value: values[key], choices });
}

/** A drop-down; values are kept as strings by the element and mapped back by the caller. */
export function selectField<T extends string | number>(
  form: AnyForm,
  spec: Common & { value: T; choices: readonly Choice<T>[] },
): { node: HTMLElement; control: VscodeSingleSelect; read(): T } {
  const control = select(spec.id, spec.value, spec.choices);
  return {
    node: labelledField(form, spec, control),
    control,
    read: () => readChoice(control, spec.choices, spec.value),
  };
}

/** A drop-down without its own label row, for table cells; `label` becomes its accessible name. */
export function select<T extends string | number>(
  id: string,
  value: T,
  choices: readonly Choice<T>[],
  label?: string,
): VscodeSingleSelect {
  const control = el('vscode-single-select', { id });
  if (label) control.label = label;
  for (const c of choices) {
    control.appendChild(
      el('vscode-option', { value: String(c.value), textContent: c.label, selected: c.value === value }),
    );
  }
  control.value = String(value);
  return control;
}

export function readChoice<T extends string | number>(
  control: VscodeSingleSelect,
  choices: readonly Choice<T>[],
  fallback: T,
): T {
  return choices.find((c) => String(c.value) === control.value)?.value ?? fallback;
}

export function checkboxField(
  form: AnyForm,
  spec: Common & { checked: boolean },
): { node: HTMLElement; control: VscodeCheckbox } {
  const control = el('vscode-checkbox', { id: spec.id, checked: spec.checked, label: spec.label });
  const error = (form as FormView<FormStateBase, unknown>).field(spec.id, control);
  const node = el(
    'vscode-form-group',
    { variant: 'vertical' },
    control,
    spec.hint ? el('vscode-form-helper', {}, el('span', { classes: ['hint'], textContent: spec.hint })) : null,
    error,
  );
  return { node, control };
}

/**
 * Tags: pick from the organisation's tags or type a new one (combobox + creatable). The element's face only
 * counts the chosen ("2 Selected"), so their names are listed under it as chips.
 */
export function tagsField(
  form: AnyForm,
  spec: Common & { value: readonly string[]; suggestions: readonly string[] },
): { node: HTMLElement; control: VscodeMultiSelect; read(): string[] } {
  const control = el('vscode-multi-select', { id: spec.id, combobox: true, creatable: true });
  const all = [...new Set([...spec.suggestions, ...spec.value])].sort((a, b) => a.localeCompare(b));
  for (const tag of all)
    control.appendChild(el('vscode-option', { value: tag, textContent: tag, selected: spec.value.includes(tag) }));
  control.value = [...spec.value];
  const chosen = el('ul', { classes: ['chips'], id: `${spec.id}-chosen`, attrs: { 'aria-label': spec.label } });
  const list = (tags: readonly string[]): void => {
    clear(chosen);
    append(
      chosen,
      ...(tags.length
        ? tags.map((t) => el('li', { classes: ['chip'], textContent: t }))
        : [el('li', { classes: ['hint'], textContent: l10n.t('No tags') })]),
    );
  };
  list(spec.value);
  control.addEventListener('change', () => list(control.value));
  return { node: labelledField(form, spec, control, chosen), control, read: () => [...control.value] };
}

export function section(title: string, ...children: Child[]): HTMLElement {
  return el('section', { attrs: { 'aria-label': title } }, el('h2', { textContent: title }), ...children);
}
