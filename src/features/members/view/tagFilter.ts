/**
 * "Filter by Tag": the organisation's tag summary searched on the portal as the user types (the text is in the tag's
 * name; "^" in front for "starts with"), in the order the user chose (by name or by how many members carry the tag,
 * ascending or descending). The order stays for the rest of the session.
 */
import * as vscode from 'vscode';
import type { PortalRegistry } from '../../../auth/portalRegistry';
import { count } from '../../../shared/format';
import type { MemberQuery } from '../../../shared/members';
import type { AccountRef } from '../../../shared/refs';
import { answered, type PickItem, type Ui } from '../../../ui/ui';

interface TagOrder {
  readonly orderBy: 'name' | 'members';
  readonly ascending: boolean;
}

/** 'note': a row that only says something (no match, more to narrow); picking it opens the search again. */
type TagChoice =
  { readonly kind: 'tag'; readonly name: string } | { readonly kind: 'order' } | { readonly kind: 'note' };

/** Tags shown at once; a longer summary is narrowed by typing. */
const MAX_SHOWN = 200;
/** Order changes in one go at most (each is a pick the user made; this only bounds the loop). */
const MAX_ROUNDS = 10;

function orders(): ReadonlyArray<TagOrder & { readonly label: string }> {
  return [
    { label: vscode.l10n.t('Most members first'), orderBy: 'members', ascending: false },
    { label: vscode.l10n.t('Fewest members first'), orderBy: 'members', ascending: true },
    { label: vscode.l10n.t('Name (A → Z)'), orderBy: 'name', ascending: true },
    { label: vscode.l10n.t('Name (Z → A)'), orderBy: 'name', ascending: false },
  ];
}

const orderLabel = (o: TagOrder): string =>
  orders().find((x) => x.orderBy === o.orderBy && x.ascending === o.ascending)?.label ?? '';

/** "^sup" → tags starting with "sup"; "sup" → tags containing it; empty → every tag. */
function tagSearch(text: string): { name?: string; startsWith?: string } {
  const raw = text.trim();
  if (raw.startsWith('^')) {
    const rest = raw.slice(1).trim();
    return rest ? { startsWith: rest } : {};
  }
  return raw ? { name: raw } : {};
}

export class TagFilter {
  private order: TagOrder = { orderBy: 'members', ascending: false };

  constructor(private readonly registry: PortalRegistry) {}

  /** Asks for a tag; the query shows members carrying it, in the view's order. */
  async ask(ui: Ui, account: AccountRef, q: MemberQuery): Promise<MemberQuery> {
    const active = new Set(q.tags ?? []);
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const picked = answered(
        await ui.search(this.source(account, active), {
          id: 'members.tags',
          title: vscode.l10n.t('Filter the members of {0} by tag (^sup: starts with "sup")', account.label),
          placeHolder: vscode.l10n.t('Search tags by name'),
        }),
      );
      if (picked.kind === 'tag')
        return { orderBy: q.orderBy, ascending: q.ascending, tags: [picked.name], activity: q.activity };
      if (picked.kind === 'note') continue;
      const items = orders().map((o): PickItem<TagOrder> => ({
        label: o.label,
        description: orderLabel(this.order) === o.label ? vscode.l10n.t('current') : '',
        value: o,
      }));
      this.order = answered(
        await ui.pick(items, { id: 'members.tags.order', placeHolder: vscode.l10n.t('Order tags by') }),
      );
    }
    return answered<MemberQuery>(undefined);
  }

  private source(account: AccountRef, active: ReadonlySet<string>) {
    const client = this.registry.client(account.portalId);
    const order = this.order;
    return async function* tags(text: string, signal: AbortSignal): AsyncGenerator<PickItem<TagChoice>[]> {
      const summary = await client.v3.memberTags.summary(
        account.accountId,
        { ...order, ...tagSearch(text) },
        { signal },
      );
      const orderRow: PickItem<TagChoice> = {
        icon: 'list-ordered',
        label: vscode.l10n.t('Order: {0}', orderLabel(order)),
        description: vscode.l10n.t('change…'),
        value: { kind: 'order' },
      };
      const rows = summary.slice(0, MAX_SHOWN).map((s): PickItem<TagChoice> => ({
        label: s.name,
        description: [
          s.members === 1 ? vscode.l10n.t('1 member') : vscode.l10n.t('{0} members', count(s.members)),
          active.has(s.name) ? vscode.l10n.t('filtering now') : '',
        ]
          .filter(Boolean)
          .join(' · '),
        value: { kind: 'tag', name: s.name },
      }));
      if (summary.length > MAX_SHOWN)
        rows.push({
          label: vscode.l10n.t('{0} more tags: type to narrow the list', count(summary.length - MAX_SHOWN)),
          value: { kind: 'note' },
        });
      if (summary.length === 0)
        rows.push({
          label: text.trim()
            ? vscode.l10n.t('No tag matches "{0}".', text.trim())
            : vscode.l10n.t('No member of {0} has a tag.', account.label),
          value: { kind: 'note' },
        });
      yield [orderRow, ...rows];
    };
  }
}
