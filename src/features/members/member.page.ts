// Create / edit member. The password field is write-only: it starts empty and is never kept in saved state.
import type { VscodeCheckbox } from '@vscode-elements/elements/dist/vscode-checkbox/vscode-checkbox.js';
import type { VscodeTextfield } from '@vscode-elements/elements/dist/vscode-textfield/vscode-textfield.js';
import { ACCOUNT_CHOICES, NEW_GROUP_CHOICES } from './assignments.protocol';
import type { MemberState, MemberValues } from './member.protocol';
import { el } from '../../forms/page/dom';
import { checkboxField, section, selectField, tagsField, textField } from '../../forms/page/fields';
import { FormView } from '../../forms/page/form';

/** Renders this form in the page the host opened; nothing of it runs for another form. */
export function startMemberPage(): void {
  let read: () => MemberValues = () => {
    throw new Error('not rendered');
  };
  new FormView<MemberState, MemberValues>({
    saveLabel: (s) => (s.mode === 'create' ? 'Add member' : 'Save'),
    draftKey: (s) => `member:${s.accountId}:${s.mode === 'create' ? '' : s.values.username}`,
    valuesOf: (s) => s.values,
    read: () => read(),
    persistable: (v) => ({ ...v, password: '' }),
    render(form, state, values) {
      const creating = state.mode === 'create';
      const t = (id: keyof MemberValues, label: string, extra: { type?: 'text' | 'email' | 'tel' | 'password'; maxLength?: number; required?: boolean; hint?: string } = {}) =>
        textField(form, { id, label, value: id === 'password' ? '' : String(values[id]), ...extra });
      const username = creating ? t('username', 'Username', { required: true, maxLength: 64, hint: 'Letters, digits, dots, dashes, underscores or @.' }) : undefined;
      const name = t('name', 'Full name', { required: true, maxLength: 200 });
      const email = t('email', 'E-mail', { type: 'email', required: true, maxLength: 254 });
      const phone = t('phone', 'Phone', { type: 'tel', maxLength: 50 });
      const password = t('password', creating ? 'Password' : 'New password', {
        type: 'password', maxLength: 200,
        hint: creating ? 'Leave empty to let the member set one from the activation e-mail.' : 'Leave empty to keep the current password.',
      });
      const realName = creating ? t('realName', 'Real name (internal)', { maxLength: 200 }) : undefined;
      const jobTitle = creating ? undefined : t('jobTitle', 'Job title', { maxLength: 254 });
      const organisation = creating ? undefined : t('organisation', 'Organisation', { maxLength: 254 });
      const address = creating ? undefined : t('address', 'Address', { maxLength: 1000 });
      const enabled = checkboxField(form, { id: 'enabled', label: 'Enabled (can sign in)', checked: values.enabled });
      const permission = creating ? selectField(form, { id: 'accountPermission', label: 'Account permission', value: values.accountPermission, choices: ACCOUNT_CHOICES }) : undefined;
      const newGroups = creating ? selectField(form, { id: 'assignToNewGroups', label: 'Permission in new groups', value: values.assignToNewGroups, choices: NEW_GROUP_CHOICES }) : undefined;
      const tags = creating ? tagsField(form, { id: 'tags', label: 'Tags', value: values.tags, suggestions: state.tagSuggestions }) : undefined;

      const text = (f: { control: VscodeTextfield } | undefined, fallback: string) => (f ? f.control.value : fallback);
      read = () => ({
        accountId: state.accountId,
        username: text(username, values.username),
        name: text(name, ''),
        email: text(email, ''),
        phone: text(phone, ''),
        password: text(password, ''),
        realName: text(realName, values.realName),
        jobTitle: text(jobTitle, values.jobTitle),
        organisation: text(organisation, values.organisation),
        address: text(address, values.address),
        enabled: (enabled.control as VscodeCheckbox).checked,
        accountPermission: permission?.read() ?? values.accountPermission,
        assignToNewGroups: newGroups?.read() ?? values.assignToNewGroups,
        tags: tags?.read() ?? values.tags,
      });

      return [
        el('h1', { textContent: creating ? 'Add member' : `Edit member ${values.name || values.username}` }),
        el('p', { classes: ['subtitle'], textContent: creating ? `To ${state.accountName}` : `${values.username} in ${state.accountName}` }),
        section('Profile', username?.node, name.node, email.node, el('div', { classes: ['row'] }, phone.node, jobTitle?.node), organisation?.node, address?.node, realName?.node),
        section('Sign-in', password.node, enabled.node),
        creating ? section('In this account', permission?.node, newGroups?.node, tags?.node) : el('p', { classes: ['hint'], textContent: 'Account permission, tags and groups are changed with "Edit Assignments".' }),
        form.actions(),
      ];
    },
  });
}
