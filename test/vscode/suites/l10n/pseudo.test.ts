// The pseudo-locale phase (phase.json: "locale": "qps-ploc"). The runner generates the qps-ploc bundles with
// `npm run l10n:pseudo` and starts the workbench in that locale, so every string the extension shows must read
// pseudo-localised; English left over was never localised.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { shownText, visibleTexts, type VisibleText } from '../../../../scripts/l10n-manifest.mjs';
import { EXTENSION_ID } from '../../support/extension';
import { readManifest } from '../../support/manifest';
import { assertPseudo, englishLeft } from '../../support/pseudo';

const PSEUDO_LOCALE = 'qps-ploc';

/** Kinds of field the manifest must contribute at least one of, so the check below cannot pass on an empty list. */
const REQUIRED_KINDS: [string, RegExp][] = [
  ['command title', /^contributes\.commands\[\d+\]\.title$/],
  ['view name', /^contributes\.views\.[^.]+\[\d+\]\.name$/],
  ['view container title', /^contributes\.viewsContainers\.[^.]+\[\d+\]\.title$/],
  ['welcome text', /^contributes\.viewsWelcome\[\d+\]\.contents$/],
  ['setting description', /^contributes\.configuration\.properties\..+\.(markdownD|d)escription$/],
];

describe('pseudo locale', () => {
  it('the extension host runs in the pseudo locale', () => {
    assert.equal(vscode.env.language, PSEUDO_LOCALE,
      `the runner did not set up the pseudo locale: vscode.env.language is ${JSON.stringify(vscode.env.language)} (see test/host/pseudoLocale.ts)`);
  });

  it('every title, view name, welcome text and setting description the manifest contributes reads pseudo-localised', () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is loaded`);
    const shown: VisibleText[] = [...visibleTexts(ext.packageJSON as object)];
    // The manifest VS Code translated has every visible field that package.json has.
    assert.deepEqual(shown.map((t) => t.path), [...visibleTexts(readManifest())].map((t) => t.path));
    for (const [kind, pattern] of REQUIRED_KINDS) assert.ok(shown.some((t) => pattern.test(t.path)), `the manifest contributes a ${kind}`);

    const english = shown
      .map((t) => ({ path: t.path, text: shownText(t.value) }))
      .filter((t) => englishLeft(t.text).length > 0)
      .map((t) => `${t.path}: ${JSON.stringify(t.text)}`);
    assert.deepEqual(english, [], `${english.length} of ${shown.length} manifest strings read English in ${vscode.env.language}`);
  });
});

describe('assertPseudo', () => {
  it('accepts pseudo text, link targets, codicons and the allowed server text', () => {
    assertPseudo('Ƞǿǿ ƥǿǿřŧȧȧŀ.\n[Şīɠƞ īƞ](command:portal.signIn) $(sign-in)');
    assertPseudo('Şīɠƞ ǿǿŭŭŧ ǿǿƒ Acme Corp?', ['Acme', 'Acme Corp']);
  });

  it('names the English a text still holds', () => {
    assert.deepEqual(englishLeft('Şīɠƞ Out of Acme', ['Acme']), ['Out', 'of']);
    assert.throws(() => assertPseudo('Refresh Ḗẋƥŀǿǿřḗḗř', [], 'the title'), /the title is not pseudo-localised: .*"Refresh"/);
  });
});
