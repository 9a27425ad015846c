/**
 * What a feature may ask of another, and what every feature's register() receives. Features talk to each other
 * only through these handles (lint forbids importing another feature's files), so each feature folder can change
 * on its own.
 */
import type * as vscode from 'vscode';
import type { PortalClient } from '../api/index';
import type { AuthHandle } from '../auth/register';
import type { FormHost } from '../forms/formHost';
import type { AccountRef, ApplicationRef, FileRef, GroupRef, Ref } from '../shared/refs';
import type { CommandEnv } from '../ui/commands';

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
  /** A write changed members of this organisation (a form's save, a command, a bulk edit). */
  readonly onDidChangeMembers: vscode.Event<Pick<AccountRef, 'portalId' | 'accountId'>>;
}

export interface ApplicationsHandle {
  refresh(): void;
}

export interface FeatureDeps {
  readonly auth: AuthHandle;
  readonly commands: CommandEnv;
  readonly forms: FormHost;
}
