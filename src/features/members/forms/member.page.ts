// Create / edit member. The password field is write-only: it starts empty and is never kept in saved state.
import * as l10n from '@vscode/l10n';
import type { VscodeCheckbox } from '@vscode-elements/elements/dist/vscode-checkbox/vscode-checkbox.js';
import type { VscodeTextfield } from '@vscode-elements/elements/dist/vscode-textfield/vscode-textfield.js';
import type { MemberFormState, MemberValues } from './member.protocol';
import { el } from '../../../forms/page/dom';
import { checkboxField, section, textFieldOf } from '../../../forms/page/fields';
import { FormView, type Rendered } from '../../../forms/page/form';
import { memberExtras } from './memberExtras.page';
import { organisationFields, type OrganisationFields } from './organisationFields.page';

/** "To Acme", "dana in Acme"; without the organisation's name (the portal did not answer its read), less. */
function subtitle(state: MemberFormState, values: MemberValues): string {
  if (state.mode === 'create') return state.accountName ? l10n.t('To {0}', state.accountName) : '';
  return state.accountName ? l10n.t('{0} in {1}', values.username, state.accountName) : values.username;
}

type Form = FormView<MemberFormState, MemberValues>;

/** The member's text fields, created in the order the page has always created them. */
function profileFields(form: Form, state: MemberFormState, values: MemberValues) {
  const creating = state.mode === 'create';
  const shown = { ...values, password: '' }; // Write-only: the password field always starts empty.
  const username = creating
    ? textFieldOf(form, shown, 'username', l10n.t('Username'), {
        required: true,
        maxLength: 64,
        hint: l10n.t('Letters, digits, dots, dashes, underscores or @.'),
      })
    : undefined;
  const name = textFieldOf(form, shown, 'name', l10n.t('Full name'), { required: true, maxLength: 200 });
  const email = textFieldOf(form, shown, 'email', l10n.t('E-mail'), { type: 'email', required: true, maxLength: 254 });
  const phone = textFieldOf(form, shown, 'phone', l10n.t('Phone'), { type: 'tel', maxLength: 50 });
  const password = textFieldOf(form, shown, 'password', creating ? l10n.t('Password') : l10n.t('New password'), {
    type: 'password',
    maxLength: 200,
    hint: creating
      ? l10n.t('Leave empty to let the member set one from the activation e-mail.')
      : l10n.t('Leave empty to keep the current password.'),
  });
  const realName = creating
    ? textFieldOf(form, shown, 'realName', l10n.t('Real name (internal)'), { maxLength: 200 })
    : undefined;
  // Without the v2 read these start empty rather than as the member's values: say so next to each.
  const unknown = state.profileKnown
    ? {}
    : { hint: l10n.t('Not shown: the portal did not answer the v2 read. Sent only if you fill it in.') };
  const v2 = (max: number) => ({ maxLength: max, ...unknown });
  const jobTitle = creating ? undefined : textFieldOf(form, shown, 'jobTitle', l10n.t('Job title'), v2(254));
  const organisation = creating ? undefined : textFieldOf(form, shown, 'organisation', l10n.t('Organisation'), v2(254));
  const address = creating ? undefined : textFieldOf(form, shown, 'address', l10n.t('Address'), v2(1000));
  return { username, name, email, phone, password, realName, jobTitle, organisation, address };
}

function profileSection(p: ReturnType<typeof profileFields>): HTMLElement {
  return section(
    l10n.t('Profile'),
    p.username?.node,
    p.name.node,
    p.email.node,
    el('div', { classes: ['row'] }, p.phone.node, p.jobTitle?.node),
    p.organisation?.node,
    p.address?.node,
    p.realName?.node,
  );
}

/** What a new member gets in the organisation; an existing member's are changed with Edit Assignments. */
function organisationSection(o: OrganisationFields | undefined): HTMLElement {
  return o
    ? section(l10n.t('In this organisation'), o.accountPermission.node, o.newGroups.node, o.tags.node)
    : el('p', {
        classes: ['hint'],
        textContent: l10n.t('Organisation permission, tags and groups are changed with "Edit Assignments".'),
      });
}

function renderMember(form: Form, state: MemberFormState, values: MemberValues): Rendered<MemberValues> {
  const creating = state.mode === 'create';
  const profile = profileFields(form, state, values);
  const enabled = checkboxField(form, {
    id: 'enabled',
    label: l10n.t('Enabled (can sign in)'),
    checked: values.enabled,
  });
  const org = creating ? organisationFields(form, state, values, { hints: false }) : undefined;
  const extras = memberExtras(form, state, values);

  const text = (f: { control: VscodeTextfield } | undefined, fallback: string) => (f ? f.control.value : fallback);
  const read = (): MemberValues => ({
    accountId: state.accountId,
    username: text(profile.username, values.username),
    name: text(profile.name, ''),
    email: text(profile.email, ''),
    phone: text(profile.phone, ''),
    password: text(profile.password, ''),
    realName: text(profile.realName, values.realName),
    jobTitle: text(profile.jobTitle, values.jobTitle),
    organisation: text(profile.organisation, values.organisation),
    address: text(profile.address, values.address),
    enabled: (enabled.control as VscodeCheckbox).checked,
    accountPermission: org?.accountPermission.read() ?? values.accountPermission,
    assignToNewGroups: org?.newGroups.read() ?? values.assignToNewGroups,
    tags: org?.tags.read() ?? values.tags,
    ...extras.read(),
  });

  const nodes = [
    el('h1', {
      textContent: creating ? l10n.t('Add member') : l10n.t('Edit member {0}', values.name || values.username),
    }),
    el('p', { classes: ['subtitle'], textContent: subtitle(state, values) }),
    profileSection(profile),
    section(l10n.t('Sign-in'), profile.password.node, enabled.node, extras.signIn),
    organisationSection(org),
    ...extras.sections,
    form.actions(),
  ];
  return { nodes, read };
}

/** Renders this form in the page the host opened; nothing of it runs for another form. */
export function startMemberPage(): void {
  new FormView<MemberFormState, MemberValues>({
    saveLabel: (s) => (s.mode === 'create' ? l10n.t('Add member') : l10n.t('Save')),
    draftKey: (s) => `member:${s.accountId}:${s.mode === 'create' ? '' : s.values.username}`,
    valuesOf: (s) => s.values,
    persistable: (v) => ({ ...v, password: '' }),
    render: renderMember,
  });
}
