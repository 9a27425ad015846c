/**
 * Which portal and organisation a tool call is about: the ones it names, else the Explorer's selected
 * organisation, else the only one there is. Every answer names them, so a person reading the chat knows what was
 * asked of whom. The organisation lists are kept a few minutes per client, so a warm call sends no request.
 */
import type { Account, PortalClient } from '../../api/index';
import type { PortalRegistry } from '../../auth/portalRegistry';
import { accountOf, type AccountRef, type Ref } from '../../shared/refs';
import { quoted } from './answers';

export interface Target {
  readonly account: AccountRef;
  readonly client: PortalClient;
  readonly portalLabel: string;
  readonly baseUrl: string;
  readonly accountName: string;
}

/** A question the model can fix by naming the portal or organisation: its message goes back as the answer. */
export class TargetError extends Error {
  constructor(
    message: string,
    readonly choices: readonly string[],
  ) {
    super(message);
    this.name = 'TargetError';
  }
}

export interface TargetInput {
  readonly portal?: string | undefined;
  readonly organisation?: string | undefined;
}

const ACCOUNTS_MAX_AGE_MS = 5 * 60_000;

export class Targets {
  private readonly lists = new WeakMap<PortalClient, { at: number; accounts: Promise<Account[]> }>();

  constructor(
    private readonly registry: PortalRegistry,
    private readonly selected: () => Ref | undefined,
  ) {}

  async resolve(input: TargetInput): Promise<Target> {
    const signedIn = this.registry.list().filter((c) => c.client !== undefined);
    const chosen = accountOf(this.selected());
    const wanted = input.portal?.trim().toLowerCase();
    const portals = wanted
      ? signedIn.filter((c) => [c.entry.id, c.entry.label, c.entry.baseUrl].some((x) => x.toLowerCase() === wanted))
      : chosen && !input.organisation
        ? signedIn.filter((c) => c.entry.id === chosen.portalId)
        : signedIn;
    const labels = signedIn.map((c) => quoted(c.entry.label));
    if (portals.length === 0) throw new TargetError('No signed-in portal matches; name one of these.', labels);
    if (portals.length > 1) throw new TargetError('Several portals are signed in; name one of these.', labels);
    const connection = portals[0];
    const client = connection?.client;
    if (!connection || !client) throw new TargetError('No portal is signed in.', []);
    const accounts = await this.accounts(client);
    const account = this.pick(
      accounts,
      input.organisation,
      chosen?.portalId === connection.entry.id ? chosen : undefined,
    );
    return {
      account: { kind: 'account', portalId: connection.entry.id, accountId: account.id, label: account.friendlyName },
      client,
      portalLabel: quoted(connection.entry.label),
      baseUrl: connection.entry.baseUrl,
      accountName: quoted(account.friendlyName),
    };
  }

  private pick(accounts: readonly Account[], named: string | undefined, chosen: AccountRef | undefined): Account {
    const wanted = named?.trim().toLowerCase();
    const found = wanted
      ? accounts.filter((a) => [String(a.id), a.name, a.friendlyName].some((x) => x.toLowerCase() === wanted))
      : chosen
        ? accounts.filter((a) => a.id === chosen.accountId)
        : accounts;
    const names = accounts.map((a) => quoted(a.friendlyName));
    const only = found.length === 1 ? found[0] : undefined;
    if (only) return only;
    throw new TargetError(
      found.length === 0
        ? 'No organisation of this portal matches; name one of these.'
        : 'This portal has several organisations; name one of these.',
      names,
    );
  }

  private accounts(client: PortalClient): Promise<Account[]> {
    const known = this.lists.get(client);
    if (known && Date.now() - known.at <= ACCOUNTS_MAX_AGE_MS) return known.accounts;
    const accounts = client.v3.accounts.list();
    const entry = { at: Date.now(), accounts };
    accounts.catch(() => {
      if (this.lists.get(client) === entry) this.lists.delete(client);
    });
    this.lists.set(client, entry);
    return accounts;
  }
}
