// Edit member assignments: groups, account permission, tags and the member's flags.
import type { VscodeCheckbox } from '@vscode-elements/elements/dist/vscode-checkbox/vscode-checkbox.js';
import type { VscodeSingleSelect } from '@vscode-elements/elements/dist/vscode-single-select/vscode-single-select.js';
import { ACCOUNT_CHOICES, GROUP_CHOICES, NEW_GROUP_CHOICES, type AssignmentsState, type AssignmentsValues, type GroupLevel } from './assignments.protocol';
import { el, safeId } from '../../forms/page/dom';
import { checkboxField, readChoice, section, select, selectField, tagsField } from '../../forms/page/fields';
import { FormView } from '../../forms/page/form';

/** Reads the current controls; set on every render. */
/** Renders this form in the page the host opened; nothing of it runs for another form. */
export function startAssignmentsPage(): void {
  let read: () => AssignmentsValues = () => {
    throw new Error('not rendered');
  };
  new FormView<AssignmentsState, AssignmentsValues>({
    saveLabel: () => 'Save',
    draftKey: (s) => `assignments:${s.accountId}:${s.username}`,
    valuesOf: (s) => s.values,
    read: () => read(),
    render(form, state, values) {
      const accountPermission = selectField(form, { id: 'accountPermission', label: 'Account permission', value: values.accountPermission, choices: ACCOUNT_CHOICES });
      const newGroups = selectField(form, {
        id: 'assignToNewGroups', label: 'Permission in new groups', value: values.assignToNewGroups, choices: NEW_GROUP_CHOICES,
        hint: 'The member joins every group created from now on with this permission.',
      });
      const tags = tagsField(form, { id: 'tags', label: 'Tags', value: values.tags, suggestions: state.tagSuggestions, hint: 'Pick from the account\'s tags or type a new one.' });
      const enabled = checkboxField(form, { id: 'enabled', label: 'Enabled (can sign in)', checked: values.enabled });
      const locked = checkboxField(form, { id: 'locked', label: 'Locked', checked: values.locked });
      const notify = checkboxField(form, { id: 'notify', label: 'Notify the member by e-mail about new group assignments', checked: values.notify });

      const levelOf = new Map(values.groups.map((g) => [g.id, g.permission]));
      const groupSelects: Array<{ id: number; control: VscodeSingleSelect; fallback: GroupLevel }> = [];
      const rows = state.groups.map((g) => {
        const id = safeId('group', g.id);
        const fallback = levelOf.get(g.id) ?? 0;
        const control = select(id, fallback, GROUP_CHOICES, `Permission in ${g.friendlyName}`);
        groupSelects.push({ id: g.id, control, fallback });
        const error = form.field(id, control);
        return el('tr', {},
          el('td', { classes: ['name'] }, el('span', { textContent: g.friendlyName }), el('div', { classes: ['hint'], textContent: g.name })),
          el('td', {}, control, error));
      });
      const table = el('table', { classes: ['grid'], attrs: { 'aria-label': 'Permission in each group' } },
        el('thead', {}, el('tr', {}, el('th', { textContent: 'Group', attrs: { scope: 'col' } }), el('th', { textContent: 'Permission', attrs: { scope: 'col' } }))),
        el('tbody', {}, ...rows));

      read = () => ({
        accountId: state.accountId,
        username: state.username,
        groups: groupSelects.map((g) => ({ id: g.id, permission: readChoice(g.control, GROUP_CHOICES, g.fallback) })),
        accountPermission: accountPermission.read(),
        tags: tags.read(),
        enabled: (enabled.control as VscodeCheckbox).checked,
        locked: (locked.control as VscodeCheckbox).checked,
        assignToNewGroups: newGroups.read(),
        notify: (notify.control as VscodeCheckbox).checked,
      });

      return [
        el('h1', { textContent: 'Edit assignments' }),
        el('p', { classes: ['subtitle'], textContent: `${state.memberName} (${state.username}${state.email ? `, ${state.email}` : ''}) in ${state.accountName}` }),
        section('Account', accountPermission.node, newGroups.node, tags.node, enabled.node, locked.node),
        section('Groups',
          state.groups.length === 0 ? el('p', { classes: ['hint'], textContent: 'This account has no groups.' }) : table,
          state.groupsTruncated ? el('p', { classes: ['hint'], textContent: `Only the first ${state.groups.length} groups are shown.` }) : null,
          notify.node),
        form.actions(),
      ];
    },
  });
}
