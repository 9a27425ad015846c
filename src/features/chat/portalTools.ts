/**
 * The tools that answer from the portal's lists rather than the access store: file records found by name across
 * the groups (Go to File Record's search, with its caches), and an organisation's overview (groups, counts,
 * usage). Neither shows a billing detail, a secret or an e-mail address.
 */
import * as vscode from 'vscode';
import type { Subscription } from '../../api/index';
import { count } from '../../shared/format';
import type { AccessHandle, FileFinder } from '../contracts';
import { page, quoted } from './answers';
import { askBeforeLongRead, windowMinutes } from './longRead';
import { defineTool, optionalCount, requiredString, type ToolEnv } from './toolKit';

interface FilesInput {
  readonly name: string;
  readonly offset: number | undefined;
}

export function findFileRecordsTool(
  env: ToolEnv,
  files: FileFinder,
  store: AccessHandle,
): vscode.LanguageModelTool<object> {
  return defineTool<FilesInput>(env, {
    name: 'portal_findFileRecords',
    input: (o) => ({ name: requiredString(o, 'name'), offset: optionalCount(o, 'offset') }),
    prepare: async (input, target, signal) => {
      const groups = await files.groupCount(target.account, signal);
      return askBeforeLongRead(store, target, groups, {
        running: vscode.l10n.t('Searching the groups of {0} for {1}…', target.accountName, quoted(input.name)),
        title: vscode.l10n.t('Search every group of {0}?', target.accountName),
        message: (e) =>
          vscode.l10n.t(
            'The portal searches file names one group at a time, so searching needs {0} requests, one per group, and a few more for the folder paths of what is found: {1} within the request budget of {2} requests every {3} minutes.',
            count(groups),
            e.etaWords,
            count(e.limit),
            windowMinutes(e),
          ),
      });
    },
    run: async (input, target, signal) => {
      const found = await files.find(target.account, input.name, signal);
      const paged = page(found.hits, input.offset);
      return {
        outcome: 'answered',
        answer: {
          searched: quoted(input.name),
          groupsSearched: found.groups,
          groupsWithMoreMatches: found.incomplete,
          fileRecords: {
            ...paged,
            items: paged.items.map((h) => ({
              name: quoted(h.name),
              kind: h.isFolder ? 'folder' : 'file',
              group: quoted(h.groupLabel),
              path: h.folders ? h.folders.map(quoted).join('/') : null,
              size: h.size,
              id: h.id,
            })),
          },
        },
      };
    },
  });
}

function usage(s: Subscription | null): Record<string, unknown> | null {
  if (!s) return null;
  const p = s.accountPackage;
  return {
    plan: quoted(s.plan),
    members: { used: s.membersUsed, allowed: p.members },
    storageBytes: { used: s.storageUsed, allowed: p.storage },
  };
}

interface OverviewInput {
  readonly offset: number | undefined;
}

export function overviewTool(env: ToolEnv, store: AccessHandle): vscode.LanguageModelTool<object> {
  return defineTool<OverviewInput>(env, {
    name: 'portal_organisationOverview',
    input: (o) => ({ offset: optionalCount(o, 'offset') }),
    run: async (input, target, signal) => {
      const { client } = target;
      const id = target.account.accountId;
      const [account, subscription, groups, firstPage] = await Promise.all([
        client.v3.accounts.get(id, { signal }),
        client.v3.accounts.subscription(id, { signal }).catch(() => null),
        client.v2.groups.list(id, undefined, { signal }),
        client.v3.members.page(id, { page: 1, size: 1 }, { signal }),
      ]);
      const view = store.view(target.account);
      const byMembers = [...groups].sort(
        (a, b) => b.members - a.members || a.friendlyName.localeCompare(b.friendlyName),
      );
      const paged = page(byMembers, input.offset);
      return {
        outcome: 'answered',
        answer: {
          enabled: account.enabled,
          // A portal that answers the whole list at once gives no total: its rows are the count.
          members: firstPage.totalResults ?? (firstPage.hasNext ? null : firstPage.items.length),
          groupCount: groups.length,
          usage: usage(subscription),
          accessStore: {
            members: view.size,
            listedAt: view.listedAt > 0 ? new Date(view.listedAt).toISOString() : null,
          },
          groups: {
            ...paged,
            items: paged.items.map((g) => ({
              group: quoted(g.friendlyName),
              name: quoted(g.name),
              members: g.members,
            })),
          },
        },
      };
    },
  });
}
