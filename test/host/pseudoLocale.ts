// Running the workbench in a locale no language pack is installed for (the pseudo locale qps-ploc).
// code-server gives every locale without a language pack `en`. A stub registration with an empty translation
// file makes it use `locale` for the workbench and every extension host: VS Code's own UI stays English, and
// our extension reads l10n/bundle.l10n.<locale>.json and package.nls.<locale>.json.
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The pseudo locale `npm run l10n:pseudo` writes bundles for. */
export const PSEUDO_LOCALE = 'qps-ploc';

/** Registers a stub language pack for `locale` in `userDataDir`; the function it returns removes it again. */
export function registerStubLanguagePack(userDataDir: string, locale: string): () => void {
  const dir = path.join(userDataDir, 'stub-language-pack');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'main.i18n.json'), JSON.stringify({ version: '1.0.0', contents: {} }));
  const file = path.join(userDataDir, 'languagepacks.json');
  fs.writeFileSync(
    file,
    JSON.stringify({
      [locale]: {
        hash: `portal-test-${locale}`,
        label: locale,
        // Must not be empty: the server's getInstalledLanguages reads extensions[0].
        extensions: [{ extensionIdentifier: { id: `portal-tools.${locale}` }, version: '0.0.1' }],
        translations: { vscode: path.join(dir, 'main.i18n.json') },
      },
    }),
  );
  // clp/ is the server's cache of resolved language packs: gone with the registration, so no later
  // session in the same user-data-dir inherits the locale.
  return () => {
    for (const p of [file, dir, path.join(userDataDir, 'clp')]) fs.rmSync(p, { recursive: true, force: true });
  };
}
