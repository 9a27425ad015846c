// A member's settings in the organisation (its permission, the permission in groups created from now on, tags): the
// same three controls on New Member and on Edit Assignments, created in the order both pages show them.
import * as l10n from '@vscode/l10n';
import type { AccountLevel } from '../../../shared/permissions';
import { accountChoices, newGroupChoices, type GroupLevel } from './assignments/assignments.protocol';
import { selectFieldOf, tagsField } from '../../../forms/page/fields';
import type { FormView } from '../../../forms/page/form';
import type { FormStateBase } from '../../../forms/protocol/common';

interface OrganisationValues {
  accountPermission: AccountLevel;
  assignToNewGroups: GroupLevel;
  tags: string[];
}

export interface OrganisationFieldsOptions {
  /**
   * Say under "Permission in new groups" and "Tags" what they do: where editing them is the page's whole purpose
   * (Edit Assignments), not where they are a new member's last few settings.
   */
  hints: boolean;
}

export type OrganisationFields = ReturnType<typeof organisationFields>;

export function organisationFields<State extends FormStateBase & { tagSuggestions: string[] }, Values>(
  form: FormView<State, Values>,
  state: State,
  values: OrganisationValues,
  o: OrganisationFieldsOptions,
) {
  const levels = accountChoices();
  const accountPermission = selectFieldOf(form, values, 'accountPermission', l10n.t('Organisation permission'), levels);
  const newLevels = newGroupChoices();
  const newGroups = selectFieldOf(form, values, 'assignToNewGroups', l10n.t('Permission in new groups'), newLevels, {
    hint: o.hints ? l10n.t('The member joins every group created from now on with this permission.') : undefined,
  });
  const tags = tagsField(form, {
    id: 'tags',
    label: l10n.t('Tags'),
    value: values.tags,
    suggestions: state.tagSuggestions,
    hint: o.hints ? l10n.t("Pick from the organisation's tags or type a new one.") : undefined,
  });
  return { accountPermission, newGroups, tags };
}
