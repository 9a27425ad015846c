// The strings the hostile seed plants in every server string. Exported so tests can look for each.

/** Text payloads, rotated over every free-text field of the seed. */
export const HOSTILE_PAYLOADS = {
  /** Markdown command links: live links in notifications, hovers and Markdown strings. */
  commandRun: '[Run](command:workbench.action.terminal.new)',
  commandDelete: '[x](command:portal.member.delete?%5B%5D)',
  /** Codicon syntax: icons in tree labels, quick picks, status bar and progress titles. */
  icons: '$(alert) $(sync~spin)',
  /** HTML and script: must stay text in webviews. */
  htmlImg: '<img src=x onerror=alert(1)>',
  script: '<script>alert(2)</script>',
  /** Bidi override (U+202E): `gnp.exe` shows as `exe.png`. */
  bidiOverride: '\u202Egnp.exe',
  /** The four isolate controls U+2066 (LRI), U+2067 (RLI), U+2068 (FSI), U+2069 (PDI). */
  bidiIsolates: '\u2066LRI\u2069\u2067RLI\u2069\u2068FSI\u2069',
} as const;

export type PayloadKind = keyof typeof HOSTILE_PAYLOADS;
export const PAYLOAD_KINDS = Object.keys(HOSTILE_PAYLOADS) as PayloadKind[];
const PAYLOAD_TEXTS: readonly string[] = Object.values(HOSTILE_PAYLOADS);

/** 98 three-byte characters and `ab.txt`: a file name of exactly 300 bytes in UTF-8. */
export const LONG_NAME = `${'名'.repeat(98)}ab.txt`;

/** Names that break object lookups, paths and Windows file names. */
export const HOSTILE_NAMES = [
  'constructor',
  '__proto__',
  'toString',
  '..',
  '.',
  'CON',
  'CON .txt',
  'COM¹',
  'CONIN$',
  LONG_NAME,
] as const;

/** The message of every error the seed's traps answer with (see the README for the triggers). */
export const ERROR_WITH_LINK = 'Denied [Fix](command:workbench.action.openSettings)';
export const CONFLICT_WITH_LINK = `Conflict ${HOSTILE_PAYLOADS.icons} [Fix](command:workbench.action.openSettings) ${HOSTILE_PAYLOADS.script}`;

/**
 * Hands out the payloads in turn: any seven draws in a row carry every payload. A record kind that
 * draws a number of fields prime to seven per record gives each of its fields every payload over
 * seven records.
 */
export function payloadRotation(): () => string {
  let i = 0;
  return () => PAYLOAD_TEXTS[i++ % PAYLOAD_TEXTS.length] ?? '';
}

/** An e-mail that still passes the API's own e-mail check: the payload without whitespace. */
export function hostileEmail(local: string, payload: string): string {
  return `${local}+${payload.replace(/\s+/g, '')}@hostile.example`;
}
