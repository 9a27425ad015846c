// Lint rules that guard the architecture, not style: formatting is Prettier's (.prettierrc.json, checked by npm run check).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importPlugin from 'eslint-plugin-import';

/** Each layer may import only the layers below it. views, forms and targets sit side by side. */
const ABOVE = {
  api: ['shared', 'node', 'engine', 'ui', 'auth', 'views', 'forms', 'targets', 'features'],
  shared: ['node', 'engine', 'ui', 'auth', 'views', 'forms', 'targets', 'features'],
  node: ['engine', 'ui', 'auth', 'views', 'forms', 'targets', 'features'],
  // The write engine: every member write goes through it, whatever the entry point; it knows no feature and no UI.
  engine: ['ui', 'auth', 'views', 'forms', 'targets', 'features'],
  ui: ['auth', 'views', 'forms', 'targets', 'features'],
  auth: ['views', 'forms', 'targets', 'features'],
  views: ['forms', 'targets', 'features'],
  forms: ['views', 'targets', 'features'],
  targets: ['views', 'forms', 'features'],
};
const ORDER = 'api ← shared ← node ← engine ← ui ← auth ← views | forms | targets ← features ← extension.ts';
const FEATURES = ['explorer', 'members', 'applications', 'records', 'review'];
/** Code that runs in a webview: the bundle entry, the page library, protocol files and each form's page. */
const BROWSER = [
  './src/webview.ts',
  './src/forms/page/**',
  './src/forms/protocol/**',
  './src/features/**/*.page.ts',
  './src/features/**/*.protocol.ts',
];
const BROWSER_MESSAGE = 'Webview code may import only protocol files, src/forms/page, src/shared and pure API models.';
/** VS Code's ways of asking and telling the user. */
const WINDOW_UI =
  /^(show(QuickPick|InputBox|OpenDialog|SaveDialog|InformationMessage|WarningMessage|ErrorMessage)|create(QuickPick|InputBox)|withProgress|setStatusBarMessage)$/;
// Every question and message goes through the Ui (src/ui/ui.ts): it shows server text as plain text, and the tests
// can answer it. Every command goes through registerCommand (src/ui/commands.ts), which owns provenance, errors and
// cancellation. A feature reaches another through its handle: a command id would skip the types and the wrapper.
const ASK_THROUGH_UI = {
  selector: `MemberExpression[property.name=${WINDOW_UI}]`,
  message: 'Ask and tell the user through the Ui (src/ui/ui.ts).',
};
const REGISTER_THROUGH_WRAPPER = {
  selector: "MemberExpression[property.name='registerCommand']",
  message: 'Register commands with registerCommand() from src/ui/commands.ts.',
};
const NO_OWN_COMMAND_CALLS = {
  selector: "CallExpression[callee.property.name='executeCommand'][arguments.0.value=/^portal\\.(?!.*\\.focus$)/]",
  message: 'Call the feature through its handle, not by command id.',
};
// vscode-l10n-dev export (npm run l10n:export, and the check in npm run check) finds strings only in calls written
// vscode.l10n.t(…) or l10n.t(…): an alias hides every string passed through it from the bundle.
const L10N_T = "MemberExpression[property.name='t'][object.type=/^(Identifier|MemberExpression)$/]";
const NO_L10N_ALIAS = {
  selector: [
    `VariableDeclarator > ${L10N_T}[object.name='l10n'].init`,
    `VariableDeclarator > ${L10N_T}[object.property.name='l10n'].init`,
    "VariableDeclarator[id.type='ObjectPattern'][init.name='l10n']",
    "VariableDeclarator[id.type='ObjectPattern'][init.property.name='l10n']",
    "ImportDeclaration[source.value='@vscode/l10n'] > ImportSpecifier",
  ].join(', '),
  message: 'Call vscode.l10n.t(…) or l10n.t(…) directly: npm run l10n:export does not see strings passed to an alias.',
};

// One door to the disk: only src/node/ reads a path a user or a file chose, or writes the extension's own files, so
// a link is never followed where it writes, what is sent is pinned, and paths stay inside their roots.
const DISK = ['fs', 'node:fs', 'fs/promises', 'node:fs/promises'].map((name) => ({
  name,
  message: 'Reach the disk through the door in src/node/ (disk.ts and its siblings), never node:fs directly.',
}));
const VSCODE_IN = (layer) => ({
  name: 'vscode',
  message: `src/${layer} must not import vscode: it sits below the UI.`,
});

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'out/**',
      'test-results/**',
      '.vscode-test/**',
      '.demo/**',
      'node_modules/**',
      'esbuild.js',
      'scripts/*.mjs',
      'eslint.config.mjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    // Dependencies point one way, and no module may reach itself through others: a cycle makes the order in which
    // modules load (and so what is still undefined) depend on who imported first. Type-only imports count for the
    // layers too: a type names what a layer may know about. import/no-cycle skips `import type` and has no option to
    // count it, so scripts/cycles.mjs (in npm run check) finds the cycles that types close.
    files: ['src/**/*.ts'],
    plugins: { import: importPlugin },
    settings: {
      'import/resolver': { node: { extensions: ['.ts', '.js'] } },
      'import/parsers': { '@typescript-eslint/parser': ['.ts'] },
    },
    rules: {
      'import/no-cycle': ['error', { ignoreExternal: true }],
      'import/no-restricted-paths': [
        'error',
        {
          zones: [
            ...Object.entries(ABOVE).map(([layer, above]) => ({
              target: `./src/${layer}`,
              from: [...above.map((f) => `./src/${f}`), './src/extension.ts', './src/webview.ts'],
              message: `src/${layer} may import only the layers below it: ${ORDER}.`,
            })),
            ...FEATURES.map((f) => ({
              target: `./src/features/${f}`,
              from: './src/features',
              except: [`./${f}`, './contracts.ts'],
              message: 'A feature talks to another only through the handles in src/features/contracts.ts.',
            })),
            // Globs and plain paths may not be mixed in one `from`, hence two zones.
            {
              target: BROWSER,
              message: BROWSER_MESSAGE,
              from: [
                './src/node/**',
                './src/ui/**',
                './src/auth/**',
                './src/views/**',
                './src/targets/**',
                './src/forms/*.ts',
                './src/features/**/!(*.page|*.protocol).ts',
              ],
            },
            { target: BROWSER, from: ['./src/features/contracts.ts', './src/extension.ts'], message: BROWSER_MESSAGE },
            {
              target: './src/features',
              from: ['./src/extension.ts', './src/webview.ts'],
              message: 'Entry points are imported by nobody.',
            },
          ],
        },
      ],
      'no-restricted-syntax': ['error', ASK_THROUGH_UI, REGISTER_THROUGH_WRAPPER, NO_OWN_COMMAND_CALLS, NO_L10N_ALIAS],
    },
  },
  // VS Code's own Ui is the one place that calls VS Code's dialogs; the wrapper the one that registers commands.
  {
    files: ['src/ui/vscodeUi.ts', 'src/ui/searchPick.ts', 'src/ui/createPick.ts'],
    rules: { 'no-restricted-syntax': ['error', REGISTER_THROUGH_WRAPPER, NO_OWN_COMMAND_CALLS, NO_L10N_ALIAS] },
  },
  {
    files: ['src/ui/commands.ts'],
    rules: { 'no-restricted-syntax': ['error', ASK_THROUGH_UI, NO_OWN_COMMAND_CALLS, NO_L10N_ALIAS] },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/node/**'],
    rules: { 'no-restricted-imports': ['error', { paths: DISK }] },
  },
  {
    // The API layer runs in unit tests, benchmarks and the emulator's tests.
    files: ['src/api/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [VSCODE_IN('api'), ...DISK] }] },
  },
  {
    // The write engine runs in unit tests and benchmarks, and below every feature.
    files: ['src/engine/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [VSCODE_IN('engine'), ...DISK] }] },
  },
  {
    // Pure code: the extension host, the webview bundle and the unit tier all load it.
    files: [
      'src/shared/**/*.ts',
      'src/webview.ts',
      'src/forms/page/**/*.ts',
      'src/forms/protocol/**/*.ts',
      'src/features/**/*.page.ts',
      'src/features/**/*.protocol.ts',
    ],
    rules: { 'no-restricted-imports': ['error', { paths: ['vscode', 'undici'], patterns: ['node:*'] }] },
  },
  {
    // The emulator is a stand-in for the server; it must not borrow client code.
    files: ['test/emulator/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['../../src/*', '../../src/**'], message: 'The emulator is independent of src/.' }] },
      ],
    },
  },
  {
    // A function that does one thing fits on a screen: past 60 lines, blank lines and comments included, it does
    // several, and a reader has to hold them all at once. No exemptions: split the function into its steps.
    files: ['src/**/*.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 60 }] },
  },
);
