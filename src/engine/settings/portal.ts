/**
 * What a settings change reads and sends. Each read takes just the values the change replaces, as the portal holds
 * them, in the shape the change sends: what is kept as the change's "before" and sent back by its undo.
 */
import type { Account, Application, Group, GroupBody, PortalClient } from '../../api/index';
import type { SettingsBefore, SettingsChange } from './model';

/** What the kind needs of a client. */
export type SettingsClient = Pick<PortalClient, 'budget'> & {
  readonly v2: Pick<PortalClient['v2'], 'groups'>;
  readonly v3: Pick<PortalClient['v3'], 'accounts' | 'applications'>;
};

/** The portal's answer to a change, for the caller (a new application's secret is never journaled, only returned). */
export type SettingsAnswer = Group | Account | Application | { readonly id: number | null } | undefined;

type Branding = NonNullable<GroupBody['branding']>;

/** The group's values for the fields `body` sets, as a body of the same shape. */
export function groupValues(group: Group, body: GroupBody): GroupBody {
  const all: GroupBody = {
    name: group.name,
    friendlyName: group.friendlyName,
    components: group.components.map((c) => c.name),
    disableChat: group.disableChat,
    disableComments: group.disableComments,
    disableAccordionWidgets: group.disableAccordionWidgets,
    ...(group.disableWidgets !== null ? { disableWidgets: group.disableWidgets } : {}),
  };
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(body) as Array<keyof GroupBody>) {
    if (key === 'branding') continue;
    if (all[key] !== undefined) out[key] = all[key];
  }
  if (body.branding) {
    const held = (group.branding ?? {}) as Record<string, unknown>;
    const branding: Record<string, unknown> = {};
    for (const key of Object.keys(body.branding))
      if (held[key] !== null && held[key] !== undefined) branding[key] = held[key];
    out.branding = branding as Branding;
  }
  return out as GroupBody;
}

function pick<T extends object>(from: T, keys: readonly string[]): SettingsBefore {
  const out: Record<string, unknown> = {};
  for (const key of keys) {
    const value = (from as Record<string, unknown>)[key];
    if (value !== undefined && value !== null) out[key] = value;
  }
  return out;
}

/** The values the change replaces, read now; null for a change that replaces nothing an undo could send back. */
export async function readBefore(
  client: SettingsClient,
  accountId: number,
  change: SettingsChange,
): Promise<SettingsBefore | null> {
  if (change.action !== 'update') return null;
  switch (change.resource) {
    case 'group':
      return groupValues(await client.v2.groups.get(accountId, change.groupId), change.body) as SettingsBefore;
    case 'organisation':
      return pick(await client.v3.accounts.get(accountId), Object.keys(change.update));
    case 'application':
      return pick(await client.v3.applications.get(change.clientId), Object.keys(change.update));
  }
}

/** Sends the change; the portal's answer goes back to the caller only. */
export async function send(client: SettingsClient, accountId: number, change: SettingsChange): Promise<SettingsAnswer> {
  switch (change.resource) {
    case 'group':
      if (change.action === 'update') return client.v2.groups.update(accountId, change.groupId, change.body);
      if (change.action === 'create') return client.v2.groups.create(accountId, change.body);
      if (change.action === 'duplicate')
        return client.v2.groups.duplicate(accountId, change.groupId, change.name).then(() => undefined);
      return client.v2.groups.delete(accountId, change.groupId).then(() => undefined);
    case 'organisation':
      return client.v3.accounts.update(accountId, change.update);
    case 'application':
      if (change.action === 'update') return client.v3.applications.update(change.clientId, change.update);
      if (change.action === 'rotate-secret')
        return client.v3.applications.update(change.clientId, { rotateSecret: true });
      if (change.action === 'create') return client.v3.applications.create(change.draft);
      return client.v3.applications.delete(change.clientId).then(() => undefined);
  }
}

const canonical = (v: unknown): string =>
  JSON.stringify(v, (_k, x: unknown) =>
    Array.isArray(x)
      ? [...(x as unknown[])].sort()
      : x && typeof x === 'object'
        ? Object.fromEntries(Object.entries(x as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
        : x,
  );

/** Whether the portal holds the values the change sends (an update landed before a reload). */
export async function holds(client: SettingsClient, accountId: number, change: SettingsChange): Promise<boolean> {
  if (change.action !== 'update') return false;
  const now = await readBefore(client, accountId, change);
  const sent =
    change.resource === 'group' ? change.body : change.resource === 'organisation' ? change.update : change.update;
  return canonical(now) === canonical(pick(sent, Object.keys(sent)));
}
