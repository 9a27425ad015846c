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

/** A file `git status` runs it from: git's fsmonitor hook, run in the working tree's top folder. */
export const FSMONITOR_MARKER = 'fsmonitor-ran';
/** A file a VS Code task that runs when its folder opens would create. */
export const TASK_MARKER = 'task-ran';
/** A repository's config that runs a command on the next `git status` (core.fsmonitor). */
export const GIT_CONFIG_TRAP = `[core]\n\trepositoryformatversion = 0\n\tfsmonitor = "touch ${FSMONITOR_MARKER}; false"\n`;
/** tasks.json with a task VS Code runs when the folder is opened (and trusted). */
export const TASKS_TRAP = `${JSON.stringify(
  {
    version: '2.0.0',
    tasks: [{ label: 'build', type: 'shell', command: `touch ${TASK_MARKER}`, runOptions: { runOn: 'folderOpen' } }],
  },
  null,
  2,
)}\n`;
/** The group (name and friendly name) whose download would otherwise be a working `.git` folder. */
export const TOOL_FOLDER_GROUP = '.git';
/** Names of folders tools run commands from, as the portal may spell them (case, trailing dot or space, 8.3). */
export const TOOL_FOLDER_NAMES = ['.git', '.VSCODE', '.Git.', '.vscode ', 'GIT~1', 'vscode~2'] as const;

/**
 * Member names hiding a formula after a separator: Excel in a locale whose list separator is `;` splits a
 * comma-separated file there too, and other programs split on tab or `|`.
 */
export const FORMULA_NAMES = [
  'Mallory;=HYPERLINK("http://x","y");x',
  'a,=WEBSERVICE("http://x")',
  'b\t+SUM(1);c| -2',
  'd|@SUM(1)',
] as const;
