// Types for l10n-manifest.mjs, so the TypeScript tests can share its definition of a visible field.
export interface VisibleText {
  /** Where the value sits, e.g. `contributes.commands[3].title`. */
  path: string;
  /** A string, or VS Code's `{ value, original }` for a translated command title or category. */
  value: unknown;
}
export function visibleTexts(manifest: object): Generator<VisibleText>;
export function shownText(value: unknown): string;
export function nlsKey(value: unknown): string | undefined;
