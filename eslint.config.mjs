// Lint rules that guard the architecture, not style: formatting is left to the editor.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importPlugin from 'eslint-plugin-import';

/** Each layer may import only the layers below it (the folders not yet sorted into layers count as above all). */
const ABOVE = {
  api: ['shared', 'ui', 'auth', 'views', 'forms', 'targets', 'features'],
  shared: ['ui', 'auth', 'views', 'forms', 'targets', 'features'],
  ui: ['auth', 'views', 'forms', 'targets', 'features'],
};
const ORDER = 'api ← shared ← ui ← everything else';
/** VS Code's ways of asking and telling the user. */
const WINDOW_UI = /^(show(QuickPick|InputBox|OpenDialog|SaveDialog|InformationMessage|WarningMessage|ErrorMessage)|create(QuickPick|InputBox)|withProgress|setStatusBarMessage)$/;

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'test-results/**', '.vscode-test/**', '.demo/**', 'node_modules/**', 'esbuild.js', 'scripts/*.mjs', 'eslint.config.mjs'] },
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
    // modules load (and so what is still undefined) depend on who imported first.
    files: ['src/**/*.ts'],
    plugins: { import: importPlugin },
    settings: { 'import/resolver': { node: { extensions: ['.ts', '.js'] } }, 'import/parsers': { '@typescript-eslint/parser': ['.ts'] } },
    rules: {
      'import/no-cycle': ['error', { ignoreExternal: true }],
      'import/no-restricted-paths': ['error', { zones: Object.entries(ABOVE).map(([layer, above]) => ({
        target: `./src/${layer}`,
        from: [...above.map((f) => `./src/${f}`), './src/extension.ts'],
        message: `src/${layer} may import only the layers below it: ${ORDER}.`,
      })) }],
    },
  },
  {
    // The API layer must stay free of VS Code so it runs in unit tests, benchmarks and the emulator's tests.
    files: ['src/api/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [{ name: 'vscode', message: 'src/api must not import vscode.' }] }] },
  },
  {
    // Dependencies point one way: views and commands may use auth and api, never the reverse.
    files: ['src/auth/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { group: ['../tree/*', '../records/*', '../webview/*', '../commands/*', '../extension'], message: 'src/auth sits below views and commands.' },
      ] }],
    },
  },
  {
    // Pure code: the extension host, the webview bundles and the unit tier all load it.
    files: ['src/shared/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: ['vscode', 'undici'], patterns: ['node:*'] }] },
  },
  {
    // Every question and message goes through the Ui (src/ui/ui.ts): it shows server text as plain text, and the
    // tests can answer it. Only VS Code's implementation of it may call these.
    files: ['src/**/*.ts'],
    ignores: ['src/ui/vscodeUi.ts', 'src/ui/searchPick.ts'],
    rules: {
      'no-restricted-syntax': ['error', { selector: `MemberExpression[property.name=${WINDOW_UI}]`, message: 'Ask and tell the user through the Ui (src/ui/ui.ts).' }],
    },
  },
  {
    // The emulator is a stand-in for the server; it must not borrow client code.
    files: ['test/emulator/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['../../src/*', '../../src/**'], message: 'The emulator is independent of src/.' }] }],
    },
  },
);
