import * as vscode from 'vscode';
import { ownValue, type MemberBodyV2, type MemberCreate, type MemberUpdate, type MemberV2 } from '../../../api/index';
import { memberCommands, type MemberCommand, type MemberFormState, type MemberValues } from './member.protocol';
import { FormPanel, type FormEnv, type SaveOutcome } from '../../../forms/formPanel';
import { normaliseTags } from './assignments/assignmentsPlan';
import { clientOf, Gaps } from '../../../forms/context';
import { createEdit, profileEdit } from './memberEdits';
import { offerFormUndo, saveEdit, type WriteContext } from './writeContext';
import { accountLevel } from './levels';
import { checkApplied, inputError, type SentField } from '../../../forms/inputError';
import { NO_EXTRAS } from './memberExtras.protocol';
import { memberProblems } from './memberChecks';
import {
  activationProblems,
  foreignGroup,
  groupFields,
  groupsToJoin,
  scheduleActivation,
  twoFactorUpdate,
} from './memberExtras';
import type { FormKey } from '../../../shared/keys';

type MemberFormContext = WriteContext & { readonly username?: string };

function blank(accountId: number): MemberValues {
  return {
    accountId,
    username: '',
    name: '',
    email: '',
    phone: '',
    password: '',
    realName: '',
    jobTitle: '',
    organisation: '',
    address: '',
    enabled: true,
    accountPermission: 1,
    assignToNewGroups: 0,
    tags: [],
    ...NO_EXTRAS,
  };
}

/** The profile fields only v2 can change (v3's PATCH has none of them), and their v2 names. */
const V2_PROFILE = [
  ['name', 'name'],
  ['email', 'email'],
  ['phone', 'telephone'],
  ['jobTitle', 'jobTitle'],
  ['organisation', 'organisation'],
  ['address', 'address'],
] as const;

/** The profile fields a v2 update sent, next to what its answer holds (v2 answers a blank field as null). */
function profileSent(profile: NonNullable<MemberBodyV2['user']>, answer: MemberV2): SentField[] {
  const out: SentField[] = [];
  for (const [field, v2Field] of V2_PROFILE) {
    const sent = profile[v2Field];
    if (sent !== undefined) out.push({ field, label: profileWords()[field], sent, now: answer.user[v2Field] ?? '' });
  }
  return out;
}

const profileWords = (): Record<(typeof V2_PROFILE)[number][0], string> => ({
  name: vscode.l10n.t('name'),
  email: vscode.l10n.t('e-mail'),
  phone: vscode.l10n.t('phone'),
  jobTitle: vscode.l10n.t('job title'),
  organisation: vscode.l10n.t('organisation'),
  address: vscode.l10n.t('address'),
});

/**
 * Create member: one v3 POST with every field of a new member. Edit member: the password and "enabled" go through
 * v3 PATCH, which names just those fields; the profile fields (name, e-mail, phone, job title, organisation,
 * address) exist only in v2, whose POST replaces the member, so it carries only `user` with the changed
 * profile fields: no accountPermission and no groups, which a stale copy would overwrite.
 * The password is write-only: never loaded, never sent back to the webview, never kept in a draft it sees.
 */
export class MemberForm extends FormPanel<MemberFormState, MemberValues, MemberCommand> {
  private state: MemberFormState | undefined;
  private username: string | undefined;

  constructor(
    env: FormEnv,
    key: FormKey,
    private readonly ctx: MemberFormContext,
    title: string,
  ) {
    super(env, 'member', key, title, memberCommands);
    this.username = ctx.username;
    this.start();
  }

  protected async load(): Promise<MemberFormState> {
    const { accountId } = this.ctx;
    const username = this.username;
    const gaps = new Gaps();
    const [accountName, tags, v3, v2, joinable] = await this.readSources(gaps, username);
    const values = blank(accountId);
    if (v3 && username) {
      Object.assign(values, {
        username,
        name: v3.user.name,
        email: v3.user.email,
        phone: v2?.user.telephone ?? v3.user.telephone ?? '',
        realName: v3.user.realName ?? '',
        jobTitle: v2?.user.jobTitle ?? '',
        organisation: v2?.user.organisation ?? '',
        address: v2?.user.address ?? '',
        enabled: v3.user.enabled,
        accountPermission: accountLevel(v3.permission),
        tags: v3.tags,
      });
    }
    this.state = {
      mode: username ? 'edit' : 'create',
      accountId,
      accountName,
      tagSuggestions: [...new Set(tags)].sort(),
      values,
      profileKnown: !username || v2 !== undefined,
      notices: gaps.notices,
      ...joinable,
      twoFactor: v3?.twoFactorAuthentication ?? false,
    };
    return this.state;
  }

  /** The reads a form needs, side by side; those it can do without leave a notice in `gaps` instead of failing. */
  private readSources(gaps: Gaps, username: string | undefined) {
    const client = clientOf(this.ctx);
    const { accountId } = this.ctx;
    return Promise.all([
      gaps.read(
        client.v3.accounts.get(accountId).then((a) => a.friendlyName || a.name),
        '',
        {
          read: vscode.l10n.t('the organisation read'),
          lost: vscode.l10n.t("the organisation's name is not shown"),
        },
      ),
      gaps.read(client.v3.memberTags.list(accountId), [] as string[], {
        read: vscode.l10n.t('the tag list'),
        lost: vscode.l10n.t("the organisation's tags are not suggested"),
      }),
      username ? client.v3.members.get(accountId, username) : Promise.resolve(undefined),
      username
        ? gaps.read(
            client.v2.members.get(accountId, username).then((m): MemberV2 | undefined => m),
            undefined,
            {
              read: vscode.l10n.t("the member's v2 read"),
              lost: vscode.l10n.t(
                'job title, organisation and address are not shown, and are sent only if you fill them in',
              ),
            },
          )
        : Promise.resolve(undefined),
      username ? Promise.resolve({ groups: [], groupsTruncated: false }) : groupsToJoin(client, accountId),
    ]);
  }

  protected override draftForWebview(values: MemberValues): MemberValues {
    return { ...values, password: '' };
  }

  protected valuesOf(command: MemberCommand): MemberValues | string {
    if (command.type !== 'save') return 'not a save';
    const state = this.state;
    if (!state) return 'the form has not loaded yet';
    if (command.values.accountId !== state.accountId) return 'it names another account';
    if (state.mode === 'edit' && command.values.username !== state.values.username) return 'it names another member';
    return (state.mode === 'create' ? foreignGroup(state, command.values) : undefined) ?? command.values;
  }

  protected async save(values: MemberValues): Promise<SaveOutcome<MemberFormState>> {
    const state = this.state;
    if (!state) throw new Error(vscode.l10n.t('The form has not loaded yet.'));
    return state.mode === 'create' ? this.create(state, values) : this.update(state, values);
  }

  private async create(state: MemberFormState, v: MemberValues): Promise<SaveOutcome<MemberFormState>> {
    const problems = [...memberProblems(v, 'create'), ...activationProblems(v)];
    if (problems.length > 0) throw inputError(problems);
    const body: MemberCreate = {
      username: v.username.trim(),
      name: v.name.trim(),
      email: v.email.trim(),
      enabled: v.enabled,
      rights: v.accountPermission,
      admin: v.accountPermission === 16,
      tags: normaliseTags(v.tags),
      assignToNewGroupsPermission: v.assignToNewGroups,
      ...(v.phone.trim() ? { phone: v.phone.trim() } : {}),
      ...(v.realName.trim() ? { realName: v.realName.trim() } : {}),
      ...groupFields(v),
    };
    const title = vscode.l10n.t('Add {0}', body.username ?? '');
    const done = await saveEdit(this.ctx, title, createEdit(body, v.password));
    this.username = done.answer?.user.username || body.username;
    const activation = await scheduleActivation(this.ctx, this.username ?? '', v);
    this.ctx.afterSave();
    // The panel becomes the new member's edit form.
    const fresh = await this.load().catch(() => ({ ...state, values: { ...v, password: '' } }));
    const message = [vscode.l10n.t('Added {0} ({1}).', body.name ?? '', body.username ?? ''), activation]
      .filter(Boolean)
      .join(' ');
    offerFormUndo(this.env.ui(), this.ctx, done, message);
    return { message, state: fresh };
  }

  private async update(state: MemberFormState, v: MemberValues): Promise<SaveOutcome<MemberFormState>> {
    const before = state.values;
    const username = before.username;
    const problems = memberProblems(v, 'edit');
    if (problems.length > 0) throw inputError(problems);

    const profile: MemberBodyV2['user'] = {};
    for (const [field, v2Field] of V2_PROFILE) {
      const value = v[field].trim();
      if (value !== before[field]) profile[v2Field] = value;
    }
    const patch: MemberUpdate = {};
    if (v.enabled !== before.enabled) patch.enabled = v.enabled;
    Object.assign(patch, await twoFactorUpdate(this.env.ui(), state, v));

    const changed = [...Object.keys(profile), ...Object.keys(patch), ...(v.password ? ['password'] : [])];
    if (changed.length === 0) return { message: vscode.l10n.t('Nothing to save: no field was changed.'), state };
    const title = vscode.l10n.t('Edit {0}', username);
    const done = await saveEdit(this.ctx, title, profileEdit(before, profile, patch, v.password, state.twoFactor));
    const sent: SentField[] = done.answerV2 ? profileSent(profile, done.answerV2) : [];
    if (patch.enabled !== undefined && done.answer)
      sent.push({
        field: 'enabled',
        label: vscode.l10n.t('enabled'),
        sent: patch.enabled,
        now: done.answer.user.enabled,
      });
    this.ctx.afterSave();
    checkApplied(sent);
    const fresh = await this.load().catch(() => ({ ...state, values: { ...v, password: '' } }));
    const saved = v.password ? vscode.l10n.t('Saved (the new password is set).') : vscode.l10n.t('Saved.');
    const message = patch.disableTwoFactorAuthentication
      ? `${saved} ${vscode.l10n.t('Two-factor authentication is off.')}`
      : saved;
    offerFormUndo(this.env.ui(), this.ctx, done, vscode.l10n.t('{0}: {1}', username, message));
    return { message, state: fresh };
  }

  protected override conflictField(values: MemberValues): string | undefined {
    // E-mail addresses are unique across the portal; a new member's conflict may be either of two fields, so none.
    const before = this.state?.values;
    if (this.state?.mode !== 'edit' || !before) return undefined;
    return values.email.trim() !== before.email ? 'email' : undefined;
  }

  protected fieldOf(apiField: string): string | undefined {
    const group = /^(?:assignGroups|assignGroupsRights|assignGroupsAdmin)\.(\d+)$/.exec(apiField);
    if (group) return `group-${group[1]}`;
    const map: Record<string, string> = {
      username: 'username',
      name: 'name',
      email: 'email',
      phone: 'phone',
      password: 'password',
      realName: 'realName',
      enabled: 'enabled',
      rights: 'accountPermission',
      admin: 'accountPermission',
      tags: 'tags',
      assignToNewGroupsPermission: 'assignToNewGroups',
      'user.username': 'username',
      'user.name': 'name',
      'user.email': 'email',
      'user.telephone': 'phone',
      'user.jobTitle': 'jobTitle',
      'user.organisation': 'organisation',
      'user.address': 'address',
      'user.password': 'password',
      assignToAllGroupsWithRights: 'allGroupsLevel',
      assignToAllGroupsWithAdmin: 'allGroupsLevel',
    };
    return ownValue(map, apiField);
  }
}
