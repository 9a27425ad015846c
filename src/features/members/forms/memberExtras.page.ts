// The member form's groups and activation sections (New Member) and its two-factor switch (Edit Member).
import * as l10n from '@vscode/l10n';
import type { VscodeCheckbox } from '@vscode-elements/elements/dist/vscode-checkbox/vscode-checkbox.js';
import type { VscodeSingleSelect } from '@vscode-elements/elements/dist/vscode-single-select/vscode-single-select.js';
import { groupChoices, type GroupLevel } from './assignments/assignments.protocol';
import { groupNameCell } from './assignments/assignments.page';
import type { MemberFormState, MemberValues } from './member.protocol';
import type { ActivationChoice, GroupMode, MemberExtraValues } from './memberExtras.protocol';
import { el, safeId, type Child } from '../../../forms/page/dom';
import {
  checkboxField,
  labelledField,
  readChoice,
  section,
  select,
  selectFieldOf,
  textFieldOf,
} from '../../../forms/page/fields';
import type { FormView } from '../../../forms/page/form';
import type { Choice } from '../../../forms/protocol/common';

type Form = FormView<MemberFormState, MemberValues>;

function groupModeChoices(): ReadonlyArray<Choice<GroupMode>> {
  return [
    { value: 'none', label: l10n.t('No group yet') },
    { value: 'all', label: l10n.t('Every group of the organisation') },
    { value: 'chosen', label: l10n.t('The groups chosen below') },
  ];
}

function activationChoices(): ReadonlyArray<Choice<ActivationChoice>> {
  return [
    { value: 'now', label: l10n.t('Now, as the member is added') },
    { value: 'date', label: l10n.t('At a date and time') },
  ];
}

/** Shows `node` only while `control` holds `value`. */
function shownWhen(control: VscodeSingleSelect, value: string, node: HTMLElement): void {
  const update = () => (node.hidden = control.value !== value);
  control.addEventListener('change', update);
  update();
}

/** A datetime-local value ("2030-01-15T09:00") in the page's time zone, as ms; 0 for none. */
function localInput(ms: number): string {
  if (!ms) return '';
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

type GroupSelect = { id: number; control: VscodeSingleSelect };

/** The member's permission in each listed group, starting from the draft's. */
function groupSelects(state: MemberFormState, values: MemberValues): GroupSelect[] {
  const levelOf = new Map(values.groups.map((g) => [g.id, g.permission]));
  return state.groups.map((g) => ({
    id: g.id,
    control: select(
      safeId('group', g.id),
      levelOf.get(g.id) ?? 0,
      groupChoices(),
      l10n.t('Permission in {0}', g.friendlyName),
    ),
  }));
}

/** The table of chosen groups, and a note when the list was cut short. */
function chosenGroups(state: MemberFormState, selects: readonly GroupSelect[]): HTMLElement {
  const table = el(
    'table',
    { classes: ['grid'], attrs: { 'aria-label': l10n.t('Permission in each group') } },
    el(
      'tbody',
      {},
      ...state.groups.map((g, i) => el('tr', {}, groupNameCell(g), el('td', {}, selects[i]?.control ?? null))),
    ),
  );
  return el(
    'div',
    {},
    table,
    state.groupsTruncated
      ? el('p', { classes: ['hint'], textContent: l10n.t('Only the first {0} groups are shown.', state.groups.length) })
      : null,
  );
}

function groupsSection(
  form: Form,
  state: MemberFormState,
  values: MemberValues,
): { node: HTMLElement; read(): Pick<MemberExtraValues, 'groupsMode' | 'allGroupsLevel' | 'groups'> } {
  const mode = selectFieldOf(form, values, 'groupsMode', l10n.t('Add to groups'), groupModeChoices());
  const levels = groupChoices().filter((c): c is Choice<1 | 4 | 16> => c.value !== 0);
  const all = selectFieldOf(form, values, 'allGroupsLevel', l10n.t('Permission in every group'), levels);
  const selects = groupSelects(state, values);
  const chosen = chosenGroups(state, selects);
  shownWhen(mode.control, 'all', all.node);
  shownWhen(mode.control, 'chosen', chosen);
  return {
    node: section(
      l10n.t('Groups'),
      mode.node,
      all.node,
      state.groups.length
        ? chosen
        : el('p', { classes: ['hint'], textContent: l10n.t('This organisation has no groups.') }),
    ),
    read: () => ({
      groupsMode: mode.read(),
      allGroupsLevel: all.read(),
      groups: selects
        .map((s) => ({ id: s.id, permission: readChoice<GroupLevel>(s.control, groupChoices(), 0) }))
        .filter((g) => g.permission !== 0),
    }),
  };
}

function activationSection(
  form: Form,
  values: MemberValues,
): { node: HTMLElement; read(): Pick<MemberExtraValues, 'activation' | 'activationDate' | 'activationMessage'> } {
  const mode = selectFieldOf(form, values, 'activation', l10n.t('Send the activation e-mail'), activationChoices());
  const date = el('vscode-textfield', {
    id: 'activationDate',
    type: 'datetime-local',
    value: localInput(values.activationDate),
  });
  const dateNode = labelledField(form, { id: 'activationDate', label: l10n.t('Date and time (your time zone)') }, date);
  const message = textFieldOf(form, values, 'activationMessage', l10n.t('Message in the e-mail (optional)'), {
    maxLength: 5000,
  });
  shownWhen(mode.control, 'date', dateNode);
  return {
    node: section(l10n.t('Activation'), mode.node, dateNode, message.node),
    read: () => {
      const ms = date.value ? new Date(date.value).getTime() : 0;
      return {
        activation: mode.read(),
        activationDate: Number.isFinite(ms) && ms > 0 ? ms : 0,
        activationMessage: message.control.value,
      };
    },
  };
}

/** Edit Member: a member with two-factor authentication on can have it switched off. */
function twoFactorSwitch(form: Form, state: MemberFormState, values: MemberValues): { node: Child; read(): boolean } {
  if (!state.twoFactor)
    return {
      node: el('p', { classes: ['hint'], textContent: l10n.t('Two-factor authentication is off for this member.') }),
      read: () => false,
    };
  const box = checkboxField(form, {
    id: 'disableTwoFactor',
    label: l10n.t('Disable two-factor authentication'),
    checked: values.disableTwoFactor,
    hint: l10n.t(
      'For a member who lost their second factor: they sign in with their password alone until they set it up again. You will be asked to confirm.',
    ),
  });
  return { node: box.node, read: () => (box.control as VscodeCheckbox).checked };
}

/**
 * New Member: the groups and activation sections. Edit Member: the two-factor switch (for the Sign-in section).
 * `read` gives every extra field either way; those the mode does not show keep their values.
 */
export function memberExtras(
  form: Form,
  state: MemberFormState,
  values: MemberValues,
): { sections: Child[]; signIn: Child; read(): MemberExtraValues } {
  const kept: MemberExtraValues = {
    groupsMode: values.groupsMode,
    allGroupsLevel: values.allGroupsLevel,
    groups: values.groups,
    activation: values.activation,
    activationDate: values.activationDate,
    activationMessage: values.activationMessage,
    disableTwoFactor: false,
  };
  if (state.mode === 'edit') {
    const twoFactor = twoFactorSwitch(form, state, values);
    return { sections: [], signIn: twoFactor.node, read: () => ({ ...kept, disableTwoFactor: twoFactor.read() }) };
  }
  const groups = groupsSection(form, state, values);
  const activation = activationSection(form, values);
  return {
    sections: [groups.node, activation.node],
    signIn: null,
    read: () => ({ ...kept, ...groups.read(), ...activation.read() }),
  };
}
