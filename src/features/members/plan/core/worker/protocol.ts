/**
 * The messages between the extension host and the worker that reads and plans a members file (planWorker.ts,
 * planInWorker.ts). Both ends are this extension's own code, built together: the types are the contract.
 *
 * A file comes as its text (Plan Changes…) or as rows already given as data (chat's proposals: see
 * membersFileOfRows); either way the worker answers `read`, then the same questions plan it.
 *
 * The plan comes back in parts, each sent when the host has taken in the one before: a section of a plan made from
 * a large file holds a great many changes, and the host reads every message waiting for it in one go, so one
 * message of all of them, or all the parts at once, would hold its event loop for as long as that takes.
 */
import type { ParseOptions } from '../file/membersFile';
import type { PlanOptions } from '../planner';
import type { FilePlan, MembersFile, PortalMember, PortalState, Problem } from '../model';

export type ToWorker =
  | { readonly type: 'read'; readonly text: string; readonly options: ParseOptions }
  | { readonly type: 'rows'; readonly file: MembersFile }
  | { readonly type: 'groupReads'; readonly members: ReadonlyMap<string, PortalMember> }
  | { readonly type: 'plan'; readonly state: PortalState; readonly options: PlanOptions }
  /** The last part was taken in: the next one. */
  | { readonly type: 'more' };

/** What the host needs to know of a file to read the portal for it, and to speak of it. */
export interface FileRead {
  /** Data rows. */
  readonly rows: number;
  /** fileDigest of the text (of the header and values, for a file given as rows). */
  readonly digest: string;
  /** The header has group columns: the group list and some members' groups are read. */
  readonly hasGroupColumns: boolean;
  /** Some members' groups may need reading (group columns, or columns that could hand over a sign-in). */
  readonly readsGroups: boolean;
}

/** The plan's sections sent in parts; the rest of the plan comes in the last message. */
export type PlanArrayKey = {
  [K in keyof FilePlan]-?: NonNullable<FilePlan[K]> extends readonly unknown[] ? K : never;
}[keyof FilePlan];

export type PlanMapKey = {
  [K in keyof FilePlan]-?: NonNullable<FilePlan[K]> extends ReadonlyMap<string, unknown> ? K : never;
}[keyof FilePlan];

export type FromWorker =
  | ({ readonly type: 'read' } & FileRead)
  | { readonly type: 'groupReads'; readonly usernames: readonly string[] }
  | { readonly type: 'part'; readonly key: PlanArrayKey; readonly items: readonly unknown[] }
  | { readonly type: 'mapPart'; readonly key: PlanMapKey; readonly entries: ReadonlyArray<readonly [string, unknown]> }
  | {
      readonly type: 'plan';
      readonly rest: Partial<FilePlan>;
      /** The file's own problems (its header's, against the portal read): the plan holds only its skipped rows'. */
      readonly problems: readonly Problem[];
    }
  | { readonly type: 'error'; readonly message: string };

/** Items a part carries: a few milliseconds of reading for the host. */
export const PART_ITEMS = 2000;
