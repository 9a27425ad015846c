// Edit member assignments: groups, account permission, tags and the member's flags.
import * as l10n from '@vscode/l10n';
import type { VscodeCheckbox } from '@vscode-elements/elements/dist/vscode-checkbox/vscode-checkbox.js';
import type { VscodeSingleSelect } from '@vscode-elements/elements/dist/vscode-single-select/vscode-single-select.js';
import {
  assignmentChoices,
  type AssignmentLevel,
  type AssignmentsState,
  type AssignmentsValues,
} from './assignments.protocol';
import { el, safeId } from '../../../../forms/page/dom';
import { checkboxField, readChoice, section, select } from '../../../../forms/page/fields';
import { FormView, type Rendered } from '../../../../forms/page/form';
import { organisationFields } from '../organisationFields.page';

/** "Dana (dana, dana@x) in Acme", without the organisation when its read was not answered. */
function subtitle(state: AssignmentsState): string {
  const who = state.email
    ? l10n.t('{0} ({1}, {2})', state.memberName, state.username, state.email)
    : l10n.t('{0} ({1})', state.memberName, state.username);
  return state.accountName ? l10n.t('{0} in {1}', who, state.accountName) : who;
}

type Form = FormView<AssignmentsState, AssignmentsValues>;

/** The organisation-wide settings and flags, created in the order the page shows them. */
function settingsAndFlags(form: Form, state: AssignmentsState, values: AssignmentsValues) {
  const { accountPermission, newGroups, tags } = organisationFields(form, state, values, { hints: true });
  const enabled = checkboxField(form, {
    id: 'enabled',
    label: l10n.t('Enabled (can sign in)'),
    checked: values.enabled,
  });
  const locked = checkboxField(form, { id: 'locked', label: l10n.t('Locked'), checked: values.locked });
  const notify = checkboxField(form, {
    id: 'notify',
    label: l10n.t('Notify the member by e-mail about new group assignments'),
    checked: values.notify,
  });
  return { accountPermission, newGroups, tags, enabled, locked, notify };
}

type GroupSelect = { id: number; control: VscodeSingleSelect; fallback: AssignmentLevel };

/** A group's cell in a table of groups: its friendly name, and its unique name below as a hint. */
export function groupNameCell(g: { readonly friendlyName: string; readonly name: string }): HTMLElement {
  return el(
    'td',
    { classes: ['name'] },
    el('span', { textContent: g.friendlyName }),
    el('div', { classes: ['hint'], textContent: g.name }),
  );
}

/** One row per group with the member's permission in it; the selects are kept to be read on save. */
function groupsTable(form: Form, state: AssignmentsState, values: AssignmentsValues) {
  const levelOf = new Map(values.groups.map((g) => [g.id, g.permission]));
  const groupSelects: GroupSelect[] = [];
  const choices = assignmentChoices(state.groupsKnown);
  const rows = state.groups.map((g) => {
    const id = safeId('group', g.id);
    const fallback = levelOf.get(g.id) ?? 0;
    const control = select(id, fallback, choices, l10n.t('Permission in {0}', g.friendlyName));
    groupSelects.push({ id: g.id, control, fallback });
    const error = form.field(id, control);
    return el('tr', {}, groupNameCell(g), el('td', {}, control, error));
  });
  const table = el(
    'table',
    { classes: ['grid'], attrs: { 'aria-label': l10n.t('Permission in each group') } },
    el(
      'thead',
      {},
      el(
        'tr',
        {},
        el('th', { textContent: l10n.t('Group'), attrs: { scope: 'col' } }),
        el('th', { textContent: l10n.t('Permission'), attrs: { scope: 'col' } }),
      ),
    ),
    el('tbody', {}, ...rows),
  );
  return { table, groupSelects, choices };
}

/** The groups table, or why it is empty or incomplete, and the notify switch. */
function groupsSection(state: AssignmentsState, table: HTMLElement, notify: HTMLElement): HTMLElement {
  return section(
    l10n.t('Groups'),
    state.groups.length === 0
      ? el('p', { classes: ['hint'], textContent: l10n.t('This organisation has no groups.') })
      : table,
    state.groupsKnown
      ? null
      : el('p', {
          classes: ['hint'],
          id: 'groups-unknown',
          textContent: l10n.t(
            'The portal did not say which groups the member is in: every group shows "Unknown", and only the groups you change are sent.',
          ),
        }),
    state.groupsTruncated
      ? el('p', {
          classes: ['hint'],
          textContent: l10n.t('Only the first {0} groups are shown.', state.groups.length),
        })
      : null,
    notify,
  );
}

/** Reads the current controls; set on every render. */
function renderAssignments(
  form: Form,
  state: AssignmentsState,
  values: AssignmentsValues,
): Rendered<AssignmentsValues> {
  const { accountPermission, newGroups, tags, enabled, locked, notify } = settingsAndFlags(form, state, values);
  const { table, groupSelects, choices } = groupsTable(form, state, values);

  const read = (): AssignmentsValues => ({
    accountId: state.accountId,
    username: state.username,
    groups: groupSelects.map((g) => ({ id: g.id, permission: readChoice(g.control, choices, g.fallback) })),
    accountPermission: accountPermission.read(),
    tags: tags.read(),
    enabled: (enabled.control as VscodeCheckbox).checked,
    locked: (locked.control as VscodeCheckbox).checked,
    assignToNewGroups: newGroups.read(),
    notify: (notify.control as VscodeCheckbox).checked,
  });

  const nodes = [
    el('h1', { textContent: l10n.t('Edit assignments') }),
    el('p', { classes: ['subtitle'], textContent: subtitle(state) }),
    section(l10n.t('Organisation'), accountPermission.node, newGroups.node, tags.node, enabled.node, locked.node),
    groupsSection(state, table, notify.node),
    form.actions(),
  ];
  return { nodes, read };
}

/** Renders this form in the page the host opened; nothing of it runs for another form. */
export function startAssignmentsPage(): void {
  new FormView<AssignmentsState, AssignmentsValues>({
    saveLabel: () => l10n.t('Save'),
    draftKey: (s) => `assignments:${s.accountId}:${s.username}`,
    valuesOf: (s) => s.values,
    render: renderAssignments,
  });
}
