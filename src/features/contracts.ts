/**
 * What a feature may ask of another, and what every feature's register() receives. Features talk to each other
 * only through these handles (lint forbids importing another feature's files), so each feature folder can change
 * on its own.
 */
import type { SettingsWriter } from '../ui/settingsWriter';
import type * as vscode from 'vscode';
import type { GuestShare, Invitation, NotOfferedReason, PortalClient } from '../api/index';
import type { AuthHandle } from '../auth/register';
import type { FormHost } from '../forms/formHost';
import type { AccessRow } from '../shared/accessRow';
import type { OutsiderRow } from '../shared/outsiderRow';
import type { AccountRef, ApplicationRef, FileRef, GroupRef, Ref } from '../shared/refs';
import type { CommandEnv } from '../ui/commands';
import type { ToolCall } from '../engine/readLog';
import type { Plan } from '../engine/members/model';

/** A read-only portal document, opened in an editor through the portal: file system. */
export type PortalDocument =
  | { readonly kind: 'record' | 'content'; readonly file: FileRef }
  | { readonly kind: 'group'; readonly group: GroupRef }
  | { readonly kind: 'account'; readonly account: AccountRef }
  | { readonly kind: 'application'; readonly application: ApplicationRef };

/** What a feature's renderer is given to render one of its documents. */
export interface DocumentContext {
  readonly client: PortalClient;
  readonly portalLabel: string;
  /** The client id of the application this window signs in to the portal with, if any. */
  readonly signedInClientId: string | undefined;
}

/** Renders the Markdown of an application's document; throws the PortalError that kept the portal from giving it. */
export type ApplicationRenderer = (ctx: DocumentContext, clientId: string) => Promise<string>;

/** A group by its ids alone. */
export interface GroupIds {
  readonly account: Pick<AccountRef, 'portalId' | 'accountId'>;
  readonly groupId: number;
}

export interface RecordsHandle {
  /**
   * The feature that owns a kind of document renders it; the records feature serves it (URI, caching, reload on
   * sign-in, the portal's problems in words).
   */
  renders(kind: 'application', render: ApplicationRenderer): void;
  /** Opens the document with current data (what was fetched a moment ago is forgotten first). */
  open(doc: PortalDocument): Promise<void>;
  /** "Go to File Record…" chose this record; the Explorer reveals its row. */
  readonly onDidGoTo: vscode.Event<FileRef>;
  /** A file record's content was saved back: the lists of its group show an old size and date until read again. */
  readonly onDidChangeFiles: vscode.Event<GroupIds>;
  /** Files and folders dropped on a group or folder row of the Explorer are uploaded there. */
  readonly dropOnTree: vscode.TreeDragAndDropController<{ readonly ref?: Ref | undefined }>;
}

export interface ExplorerHandle {
  /** The selected row lies under this account; the Members view follows it. */
  readonly onDidSelectAccount: vscode.Event<AccountRef>;
  /** What the selected row names (the first, in a multi-selection); undefined when none is selected. */
  selected(): Ref | undefined;
  /** Drops every list and asks the portal again ("Refresh All Views"). */
  refresh(): void;
  /** Members of this organisation were added, removed or changed: the rows that count them are read again. */
  membersChanged(account: Pick<AccountRef, 'portalId' | 'accountId'>): void;
}

export interface MembersHandle {
  /** Shows this account's members; a different account starts without search, filter or order. */
  show(account: AccountRef): void;
  refresh(): void;
  /**
   * A write changed members of this organisation (a form's save, a command, a bulk edit), or an access matrix read
   * learnt their groups as the portal holds them now.
   */
  readonly onDidChangeMembers: vscode.Event<Pick<AccountRef, 'portalId' | 'accountId'>>;
}

export interface ApplicationsHandle {
  refresh(): void;
}

export interface FeatureDeps {
  readonly auth: AuthHandle;
  readonly commands: CommandEnv;
  readonly forms: FormHost;
  /** Every change to a group, the organisation or an application goes through the engine by this. */
  readonly settings: SettingsWriter;
}

/** What an organisation's access store holds now: no request is sent to answer from it. */
export interface AccessView {
  /** Group names, by column index. */
  readonly columns: readonly string[];
  /** Tag names, by tag index. */
  readonly tags: readonly string[];
  /** When the member list was last walked to its end (0: never). */
  readonly listedAt: number;
  readonly size: number;
  all(): Iterable<AccessRow>;
  row(username: string): AccessRow | undefined;
  columnOf(name: string): number | undefined;
  /** What a column is called where people read it: the group's friendly name once read, else its name. */
  label?(column: number): string;
}

/** How long some requests take within a portal's request budget. */
export interface BudgetEstimate {
  readonly etaMs: number;
  /** The same in words ("about 3 minutes"), in VS Code's language. */
  readonly etaWords: string;
  /** The request budget: `limit` requests every `windowMs`. */
  readonly limit: number;
  readonly windowMs: number;
}

/** What a fresh answer from the store costs now: reads within the request budget, and how long they take. */
export interface AccessCost extends BudgetEstimate {
  /** Member reads (one v2 request each) and member list pages still to ask for. */
  readonly reads: number;
  readonly pages: number;
}

/** The members feature's access store (the access matrix's journal and sessions), for answers in other features. */
export interface AccessHandle {
  view(account: AccountRef): AccessView;
  /** What reading the missing and stale parts would take (`needGroups`: every member's groups, not only the list). */
  cost(account: AccountRef, needGroups: boolean): Promise<AccessCost>;
  /** Reads what is missing or stale, within the request budget; the caller has asked the user first. */
  refresh(account: AccountRef, signal: AbortSignal): Promise<'done' | 'cancelled' | 'declined'>;
  /** How long `requests` more requests to the account's portal take now, as `cost` estimates them. */
  estimate(account: AccountRef, requests: number): BudgetEstimate;
  /**
   * The organisation's guests and pending invitations (observed endpoints), read within the budget when not fresh,
   * and the one sentence saying what the portal refused ('' when nothing).
   */
  outsiders(account: AccountRef, signal: AbortSignal): Promise<{ rows: readonly OutsiderRow[]; note: string }>;
  /**
   * The same read as the store keeps it, for a feature that makes rows of its own: the guest shares placed in the
   * organisation as the matrix places them (what each shares in the matrix's words), and the pending invitations.
   */
  placedOutsiders(account: AccountRef, signal: AbortSignal): Promise<PlacedOutsiders>;
}

/** A guest share of an organisation, with what it shares named as the access matrix names it. */
export interface PlacedGuestShare {
  readonly share: GuestShare;
  readonly what: string;
  /** The unique name of its group, when the portal placed it. */
  readonly group: string | undefined;
  /** The shared record's path in its group ("Folder/name"), where one read resolved it. */
  readonly path: string | undefined;
}

/** What the access store read of who reaches an organisation from outside its member list. */
export interface PlacedOutsiders {
  readonly at: number;
  readonly shares: readonly PlacedGuestShare[] | NotOfferedReason;
  readonly invitations: readonly Invitation[] | NotOfferedReason;
  /** Shares placed in another organisation's groups, left out. */
  readonly elsewhere: number;
  /** A group of the organisation by its id (as an invitation names it): the name people know, or the id. */
  groupLabel(id: string): string;
}

/** A desired member row, in the members file's own columns (`username`, `name`, …, `group:<name>`). */
export type DesiredMemberRow = Readonly<Record<string, string>>;

/** Plans from desired rows, as a members file is planned, and shows the plan in the Plan view. Sends no write. */
export interface PlanProposals {
  /** The reads a plan of `rows` needs: the member list walked, or each member the rows name read alone when fewer. */
  reads(account: AccountRef, rows: readonly DesiredMemberRow[], signal: AbortSignal): Promise<ProposalReads>;
  propose(
    account: AccountRef,
    rows: readonly DesiredMemberRow[],
    signal: AbortSignal,
  ): Promise<{
    readonly changes: number;
    readonly problems: readonly string[];
    readonly read: ProposalReads;
    /** false: a plan was on show and the person kept it, when asked, rather than see this one. */
    readonly shown: boolean;
  }>;
}

export interface ProposalReads {
  /** `named`: one read of each member the rows name; `list`: the organisation's whole member list. */
  readonly way: 'named' | 'list';
  /** Requests the reads take (at most, before they are sent; as sent, after). */
  readonly requests: number;
  /** The requests the other way would have taken. */
  readonly otherWay: number;
  /** Members in the organisation, as its first list page says. */
  readonly members: number;
}

/** A file record found by name, with the folders from its group's root (undefined when the portal did not name them). */
export interface FoundFileRecord {
  readonly groupId: number;
  readonly groupName: string;
  readonly groupLabel: string;
  readonly id: number;
  readonly name: string;
  readonly isFolder: boolean;
  readonly size: number | null;
  readonly folders: readonly string[] | undefined;
}

/** Go to File Record's search, for answers in other features (its group list and folder caches included). */
export interface FileFinder {
  /** The account's groups a search asks, one request each (the group list read now unless kept). */
  groupCount(account: AccountRef, signal: AbortSignal): Promise<number>;
  find(
    account: AccountRef,
    text: string,
    signal: AbortSignal,
  ): Promise<{ readonly hits: readonly FoundFileRecord[]; readonly groups: number; readonly incomplete: number }>;
}

/** A question chat asked through one of the portal's tools, as journaled: what and when, never the answer. */
export type ChatToolCall = ToolCall;

/** Chat's tools as the change history lists them: their calls in this storage, oldest first. */
export interface ChatHandle {
  listCalls(): Promise<ChatToolCall[]>;
}

/** A plan the Plan view applied: the report it wrote and what its rows say. */
export interface AppliedPlan {
  readonly plan: Plan;
  readonly account: AccountRef;
  /** The action report's path. */
  readonly report: string;
  readonly done: number;
  readonly failed: number;
}

/**
 * The Plan view, for plans of member changes another feature builds (through the engine's model): shown there with
 * its confirmation, journal, report and Undo, and applied only by a person.
 */
export interface MemberPlans {
  /** Shows the plan; `usernames`, whose groups it changes, are read again by the access store afterwards. */
  show(plan: Plan, account: AccountRef, usernames: readonly string[]): Promise<void>;
  /** A plan shown by the Plan view was applied (its report written). */
  readonly onDidApply: vscode.Event<AppliedPlan>;
  /**
   * The apply of a plan titled `title` that began after `since` and ended, as its journal tells it (for a plan shown
   * in a window that is gone); undefined when none.
   */
  appliedRun(
    account: Pick<AccountRef, 'portalId' | 'accountId'>,
    title: string,
    since: number,
  ): Promise<{ report: string; at: number; done: number; failed: number } | undefined>;
}
