/**
 * A file record's content rights in words: `memberPermission` (and a guest share's `permission`) from the content
 * permission masks of spec 2.9, and `sharing` from what the observations say of it. Nothing is read into a value the
 * sources do not explain: a mask with a bit the spec does not name is the number, "(not understood)", and a `sharing`
 * value other than MEMBERS or NONE is shown as the portal sent it.
 */
import * as l10n from '@vscode/l10n';
import { ContentPermission } from '../api/permissions';

/** Each bit the spec names (2.9, content level), highest first, with its words. Made per call for the language. */
function namedBits(): ReadonlyArray<readonly [number, string]> {
  return [
    [ContentPermission.Administer, l10n.t('Administer (no restrictions)')],
    [ContentPermission.EditDelete, l10n.t('View, edit and delete')],
    [ContentPermission.Edit, l10n.t('View and edit')],
    [ContentPermission.ViewDownloadShare, l10n.t('View, download and share')],
    [ContentPermission.View, l10n.t('View only')],
  ];
}

const KNOWN_BITS = Object.values(ContentPermission).reduce((all, bit) => all | bit, 0);

/**
 * What a content mask allows, in words. One named bit: its words ("View and edit"). Several: the words of each,
 * highest first, joined ("View and edit + View only"), since the spec gives no words for a combination. No value:
 * "Not given". Zero, a negative or fractional number, or any bit the spec does not name: "36 (not understood)".
 */
export function contentRightsWords(mask: number | null | undefined): string {
  if (mask === null || mask === undefined) return l10n.t('Not given');
  if (!Number.isSafeInteger(mask) || mask <= 0 || (mask & ~KNOWN_BITS) !== 0)
    return l10n.t('{0} (not understood)', String(mask));
  return namedBits()
    .filter(([bit]) => (mask & bit) === bit)
    .map(([, words]) => words)
    .join(' + ');
}

/**
 * Who a record is shared with, from `sharing`: MEMBERS and NONE are the two values the observations explain; any
 * other is shown as sent (through `esc`, which keeps server text as text where it is shown), and says so.
 */
export function sharingWords(sharing: string | null | undefined, esc: (value: string) => string = (v) => v): string {
  if (sharing === null || sharing === undefined || sharing === '') return l10n.t('Not given');
  if (sharing === 'MEMBERS') return l10n.t("the group's members");
  if (sharing === 'NONE') return l10n.t('nobody');
  return l10n.t('{0} (as the portal sent it)', esc(sharing));
}
