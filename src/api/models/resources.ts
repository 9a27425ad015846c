/**
 * What a portal answer holds, as the parse errors name it. Each noun has whole sentences of its own rather than an
 * English word put into one sentence: a translation can then give each noun its article, gender and case.
 */
import * as l10n from '@vscode/l10n';

const SENT_WITHOUT = {
  account: (d: string) =>
    l10n.t('The server sent an organisation without {0}; it did not answer like a portal API.', d),
  'account membership': (d: string) =>
    l10n.t('The server sent an organisation membership without {0}; it did not answer like a portal API.', d),
  application: (d: string) =>
    l10n.t('The server sent an application without {0}; it did not answer like a portal API.', d),
  component: (d: string) => l10n.t('The server sent a component without {0}; it did not answer like a portal API.', d),
  'custom names': (d: string) =>
    l10n.t('The server sent custom names without {0}; it did not answer like a portal API.', d),
  'file record': (d: string) =>
    l10n.t('The server sent a file record without {0}; it did not answer like a portal API.', d),
  group: (d: string) => l10n.t('The server sent a group without {0}; it did not answer like a portal API.', d),
  member: (d: string) => l10n.t('The server sent a member without {0}; it did not answer like a portal API.', d),
  'member tag': (d: string) =>
    l10n.t('The server sent a member tag without {0}; it did not answer like a portal API.', d),
  organisation: (d: string) =>
    l10n.t('The server sent an organisation without {0}; it did not answer like a portal API.', d),
  page: (d: string) => l10n.t('The server sent a page without {0}; it did not answer like a portal API.', d),
  subscription: (d: string) =>
    l10n.t('The server sent a subscription without {0}; it did not answer like a portal API.', d),
  user: (d: string) => l10n.t('The server sent a user without {0}; it did not answer like a portal API.', d),
  userinfo: (d: string) =>
    l10n.t("The server sent the signed-in user's details without {0}; it did not answer like a portal API.", d),
} satisfies Record<string, (detail: string) => string>;

/** One thing a portal answer holds. */
export type Resource = keyof typeof SENT_WITHOUT;

const LISTS = {
  accounts: {
    notAList: () =>
      l10n.t('The server sent a list of organisations that is not an array; it did not answer like a portal API.'),
    tooLong: (n: string, max: string) =>
      l10n.t('The portal sent {0} organisations in one answer; the extension reads at most {1}.', n, max),
  },
  applications: {
    notAList: () =>
      l10n.t('The server sent a list of applications that is not an array; it did not answer like a portal API.'),
    tooLong: (n: string, max: string) =>
      l10n.t('The portal sent {0} applications in one answer; the extension reads at most {1}.', n, max),
  },
  components: {
    notAList: () =>
      l10n.t('The server sent a list of components that is not an array; it did not answer like a portal API.'),
    tooLong: (n: string, max: string) =>
      l10n.t('The portal sent {0} components in one answer; the extension reads at most {1}.', n, max),
  },
  groups: {
    notAList: () =>
      l10n.t('The server sent a list of groups that is not an array; it did not answer like a portal API.'),
    tooLong: (n: string, max: string) =>
      l10n.t('The portal sent {0} groups in one answer; the extension reads at most {1}.', n, max),
  },
  'member tags': {
    notAList: () =>
      l10n.t('The server sent a list of member tags that is not an array; it did not answer like a portal API.'),
    tooLong: (n: string, max: string) =>
      l10n.t('The portal sent {0} member tags in one answer; the extension reads at most {1}.', n, max),
  },
  'member tag summary': {
    notAList: () =>
      l10n.t('The server sent a member tag summary that is not an array; it did not answer like a portal API.'),
    tooLong: (n: string, max: string) =>
      l10n.t(
        'The portal sent a member tag summary of {0} tags in one answer; the extension reads at most {1}.',
        n,
        max,
      ),
  },
  organisations: {
    notAList: () =>
      l10n.t('The server sent a list of organisations that is not an array; it did not answer like a portal API.'),
    tooLong: (n: string, max: string) =>
      l10n.t('The portal sent {0} organisations in one answer; the extension reads at most {1}.', n, max),
  },
} satisfies Record<string, { notAList: () => string; tooLong: (n: string, max: string) => string }>;

/** A list a portal answer holds (a plain array body). */
export type ListResource = keyof typeof LISTS;

/** Every noun, for the tests that check each sentence is in the bundle. */
export const RESOURCES = Object.keys(SENT_WITHOUT) as Resource[];
export const LIST_RESOURCES = Object.keys(LISTS) as ListResource[];

/** "The server sent a member without its "user"…", in the user's language. */
export function sentWithout(resource: Resource, detail: string): string {
  return SENT_WITHOUT[resource](detail);
}

export function notAList(list: ListResource): string {
  return LISTS[list].notAList();
}

export function listTooLong(list: ListResource, count: string, max: string): string {
  return LISTS[list].tooLong(count, max);
}
