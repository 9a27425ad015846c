/**
 * Server text (and anything else a stranger wrote) as plain text for VS Code's own surfaces. Notifications,
 * progress titles and modal dialogs turn `[label](command:…)` into a link that runs a command; quick picks,
 * tree rows, the status bar and the Accounts menu turn `$(name)` into an icon. A portal name, an error the
 * server wrote or a signed-out reason must do neither, so every user-visible string built from such text
 * passes through `plain()`. No VS Code here: the unit tier tests it directly.
 */

/** Bidirectional controls reorder what is shown ("gpj.exe" for "exe.jpg"); they never belong in a name. */
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
/** C0/C1 controls, line breaks included: one value reads as one line. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]+/g;
/** An invisible break between the characters that open a link target or an icon, so neither pattern matches. */
const BREAK = '\u200b';
/** Longer than any name a person reads in a notification; the rest is cut, not shown. */
const MAX_PLAIN_LENGTH = 1000;

interface PlainOptions {
  /** Keep line breaks (a modal dialog's detail); other controls still become spaces. */
  readonly multiline?: boolean;
  readonly maxLength?: number;
}

export function plain(value: string | number | null | undefined, options: PlainOptions = {}): string {
  if (value === null || value === undefined) return '';
  const maxLength = options.maxLength ?? MAX_PLAIN_LENGTH;
  let text = String(value).replace(BIDI, '');
  text = options.multiline
    ? text
        .split(/\r\n|\n/)
        .map((line) => line.replace(CONTROL, ' '))
        .join('\n')
    : text.replace(CONTROL, ' ');
  // `](` starts a link's target and `$(` an icon; a zero-width space between the two characters defuses both.
  text = text.replace(/\]\(/g, `]${BREAK}(`).replace(/\$\(/g, `$${BREAK}(`);
  return text.length > maxLength ? `${text.slice(0, maxLength - 1)}…` : text;
}

/** Text without bidirectional controls, for surfaces that render markup safely but still reorder characters. */
export function withoutBidi(text: string): string {
  return text.replace(BIDI, '');
}

/** True when `plain()` would change nothing (for assertions and the leak-style scans in tests). */
export function isPlain(text: string): boolean {
  return !/\]\(|\$\(/.test(text) && !new RegExp(BIDI.source).test(text);
}
