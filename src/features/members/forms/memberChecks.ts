/**
 * What the member form checks before anything is sent: every field at once, each with its own message, by the same
 * rules the members file is checked with (one copy of them, in shared/memberRules.ts). The portal's answer still has
 * the last word; this only spares a round trip that can only fail.
 */
import * as vscode from 'vscode';
import type { FieldError } from '../../../api/index';
import {
  EMAIL,
  MAX_EMAIL,
  MAX_JOB_TITLE,
  MAX_NAME,
  MAX_TAG_LENGTH,
  MAX_TAGS_PER_MEMBER,
  USERNAME,
} from '../../../shared/memberRules';
import type { MemberValues } from './member.protocol';

function tooLong(field: string, value: string, max: number): FieldError | undefined {
  return value.trim().length > max
    ? { field, message: vscode.l10n.t('At most {0} characters ({1} now).', max, value.trim().length) }
    : undefined;
}

function usernameProblem(value: string): FieldError | undefined {
  const v = value.trim();
  if (!v) return { field: 'username', message: vscode.l10n.t('Enter a username.') };
  if (!USERNAME.test(v))
    return {
      field: 'username',
      message: vscode.l10n.t(
        'A username is 2 to 64 letters, digits, dots, dashes, underscores or @, and starts with a letter or digit.',
      ),
    };
  return undefined;
}

function emailProblem(value: string): FieldError | undefined {
  const v = value.trim();
  if (!v) return { field: 'email', message: vscode.l10n.t('Enter an e-mail address.') };
  if (!EMAIL.test(v))
    return { field: 'email', message: vscode.l10n.t('Enter an e-mail address such as name@example.com.') };
  return tooLong('email', v, MAX_EMAIL);
}

function tagsProblem(tags: readonly string[]): FieldError | undefined {
  if (tags.length > MAX_TAGS_PER_MEMBER)
    return { field: 'tags', message: vscode.l10n.t('At most {0} tags.', MAX_TAGS_PER_MEMBER) };
  const long = tags.find((t) => t.trim().length > MAX_TAG_LENGTH);
  return long !== undefined
    ? { field: 'tags', message: vscode.l10n.t('A tag has at most {0} characters: "{1}".', MAX_TAG_LENGTH, long) }
    : undefined;
}

/** Every problem of the values, at once; an empty list when the portal may be asked. */
export function memberProblems(v: MemberValues, mode: 'create' | 'edit'): FieldError[] {
  const name = v.name.trim()
    ? tooLong('name', v.name, MAX_NAME)
    : { field: 'name', message: vscode.l10n.t('Enter a name.') };
  const problems = [
    mode === 'create' ? usernameProblem(v.username) : undefined,
    name,
    emailProblem(v.email),
    mode === 'create' ? tooLong('realName', v.realName, MAX_NAME) : tooLong('jobTitle', v.jobTitle, MAX_JOB_TITLE),
    mode === 'create' ? tagsProblem(v.tags) : undefined,
  ];
  return problems.filter((p): p is FieldError => p !== undefined);
}
