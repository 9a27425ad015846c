/** Where an upload goes: a group's root or a folder, from the row a command or a drop names. */
import type { UploadTargetRef } from '../../../engine/uploads/plan';
import type { FileRef, GroupRef, Ref } from '../../../shared/refs';

/** Where an upload goes, with the words that name it. */
export interface UploadPlace {
  readonly target: UploadTargetRef;
  readonly group: GroupRef;
  readonly label: string;
  /** The group and the folders down to the place, each followed by "/": "Marketing/campaigns/". */
  readonly path: string;
  /** The group, and the folder in it ("Marketing / q1-docs"): how a resume offer names where the files go. */
  readonly fullLabel: string;
}

/** A group row's root, or a folder row. */
export function placeAt(ref: GroupRef | FileRef): UploadPlace {
  const group = ref.kind === 'group' ? ref : ref.group;
  // A folder row reached without the view's walk (a picker's) knows no folders between the root and itself.
  const between = ref.kind === 'group' ? [] : (ref.folders?.map((f) => f.name) ?? ['…']);
  const label = ref.kind === 'group' ? ref.label : ref.name;
  return {
    target: {
      portalId: group.account.portalId,
      accountId: group.account.accountId,
      groupId: group.groupId,
      folderId: ref.kind === 'group' ? 0 : ref.fileId,
    },
    group,
    label,
    path: [group.label, ...between, ...(ref.kind === 'group' ? [] : [ref.name])].map((n) => `${n}/`).join(''),
    fullLabel: ref.kind === 'group' ? label : `${group.label} / ${label}`,
  };
}

/** A group row (its root) or a folder row; undefined for any other row. */
export function placeOf(ref: Ref | undefined): UploadPlace | undefined {
  return ref?.kind === 'group' || (ref?.kind === 'file' && ref.isFolder) ? placeAt(ref) : undefined;
}
