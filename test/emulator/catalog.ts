// Fixed vocabularies the spec lists without saying who gets what: components, capabilities, features.
import type { AccountPermission } from './model';

export interface ComponentInfo {
  name: string;
  beta: boolean;
  title: string;
  description: string;
  iconName: string;
}

export const COMPONENTS: readonly ComponentInfo[] = [
  { name: 'files', beta: false, title: 'Files', description: 'Share, organise and version files', iconName: 'folder' },
  {
    name: 'pages',
    beta: false,
    title: 'Pages',
    description: 'Wiki-style pages for shared knowledge',
    iconName: 'book',
  },
  {
    name: 'events',
    beta: false,
    title: 'Events',
    description: 'A shared calendar of meetings and deadlines',
    iconName: 'calendar',
  },
  { name: 'tasks', beta: false, title: 'Tasks', description: 'Task lists and kanban boards', iconName: 'checklist' },
  {
    name: 'activity',
    beta: false,
    title: 'Activity',
    description: 'What changed in the group, newest first',
    iconName: 'pulse',
  },
  {
    name: 'discussions',
    beta: false,
    title: 'Discussions',
    description: 'Threaded conversations',
    iconName: 'comment-discussion',
  },
  { name: 'chat', beta: true, title: 'Chat', description: 'Real-time group chat', iconName: 'comment' },
  { name: 'notes', beta: true, title: 'Notes', description: 'Personal and shared notes', iconName: 'note' },
];

export const PACKAGE_COMPONENTS: Record<string, string[]> = {
  business: COMPONENTS.map((c) => c.name),
  team: ['files', 'pages', 'events', 'tasks', 'activity', 'discussions'],
  basic: ['files', 'activity'],
};

export const ALL_CAPABILITIES = [
  'AUDIT',
  'AUDIT_EXPORT',
  'AUDIT_METRICS',
  'GROUPS',
  'GROUPS_CREATE',
  'GROUPS_ORDER',
  'GUESTS',
  'GUESTS_UPDATE',
  'GUESTS_DELETE',
  'INVITES',
  'INVITES_CREATE',
  'INVITES_UPDATE',
  'INVITES_DELETE',
  'LABELS_CREATE',
  'LABELS_UPDATE',
  'LABELS_DELETE',
  'MEMBERS',
  'MEMBERS_CREATE',
  'MEMBERS_UPDATE',
  'MEMBERS_DELETE',
  'MEMBERS_EXPORT',
  'MEMBER_RIGHTS',
  'MEMBER_RIGHTS_CREATE',
  'MEMBER_RIGHTS_UPDATE',
  'MEMBER_RIGHTS_DELETE',
  'ORGANISATION_UPDATE',
  'PROPERTIES',
  'PROPERTIES_CREATE',
  'PROPERTIES_DELETE',
  'RESTRICTED_APPS_CREATE',
  'RESTRICTED_APPS_DELETE',
  'SEARCH',
  'SSO',
  'TRASH',
] as const;

/**
 * Super administrators get everything; the others what their permission lets them do. An organisation's package may
 * withhold some from everyone (`withheld`).
 */
export function capabilitiesFor(permission: AccountPermission, withheld: readonly string[] = []): string[] {
  const all: readonly string[] =
    permission === 16
      ? ALL_CAPABILITIES
      : permission === 4
        ? ['GROUPS', 'GROUPS_CREATE', 'LABELS_CREATE', 'MEMBERS', 'SEARCH']
        : ['GROUPS', 'MEMBERS', 'SEARCH'];
  return all.filter((c) => !withheld.includes(c));
}

/** Field names of GET /v2/accounts/{a}/custom (the spec names the concepts, not the keys). */
export const CUSTOM_NAME_KEYS = [
  'event',
  'discussion',
  'file',
  'note',
  'task',
  'events',
  'discussions',
  'files',
  'notes',
  'tasks',
  'shortcuts',
] as const;
