// Which package.json fields a person reads. One definition for the static check (scripts/l10n-check.mjs: each must
// be a %key%) and for the pseudo-locale run (test/vscode/suites/l10n: each must read translated inside VS Code).

/** Keys whose string value VS Code shows: titles, names, descriptions, welcome text, labels. */
const VISIBLE_KEYS = new Set([
  'title',
  'shortTitle',
  'category',
  'name',
  'contextualTitle',
  'contents',
  'label',
  'displayName',
  'description',
  'markdownDescription',
  'enumDescriptions',
  'markdownEnumDescriptions',
  'enumItemLabels',
  'deprecationMessage',
  'markdownDeprecationMessage',
  'altText',
  'userDescription',
]);

/** Subtrees that hold data or wiring, never text for people: setting defaults and enums, menu entries. */
const DATA_KEYS = new Set(['default', 'examples', 'enum', 'const', 'menus', 'keybindings']);

/**
 * A language model tool's `name` is its id and its `inputSchema` is read by the model, not by people: they stay
 * English, as `modelDescription` does.
 */
const TOOL_DATA_KEYS = new Set(['name', 'inputSchema']);

/** VS Code's translated manifest gives some fields as `{ value, original }` (command titles and categories). */
function isLocalized(value) {
  return typeof value === 'object' && value !== null && typeof value.value === 'string';
}

function* walk(node, path) {
  if (Array.isArray(node)) {
    for (const [i, item] of node.entries()) yield* walk(item, `${path}[${i}]`);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  for (const [key, value] of Object.entries(node)) {
    const at = `${path}.${key}`;
    if (DATA_KEYS.has(key)) continue;
    if (/^contributes\.languageModelTools\[\d+\]$/.test(path) && TOOL_DATA_KEYS.has(key)) continue;
    if (VISIBLE_KEYS.has(key) && (typeof value === 'string' || isLocalized(value))) yield { path: at, value };
    else if (VISIBLE_KEYS.has(key) && Array.isArray(value) && value.every((v) => typeof v === 'string')) {
      for (const [i, v] of value.entries()) yield { path: `${at}[${i}]`, value: v };
    } else yield* walk(value, at);
  }
}

/**
 * Every user-visible text of a manifest, with its path (`contributes.commands[3].title`). The value is the raw
 * string from package.json, or in a running VS Code the translated string or `{ value, original }`.
 */
export function* visibleTexts(manifest) {
  for (const key of ['displayName', 'description']) {
    if (key in manifest) yield { path: key, value: manifest[key] };
  }
  yield* walk(manifest.capabilities, 'capabilities');
  yield* walk(manifest.contributes, 'contributes');
}

/** The string a person sees for one visible value (the `value` of a `{ value, original }`). */
export function shownText(value) {
  return isLocalized(value) ? value.value : String(value);
}

/** The key of a `%key%` placeholder, or undefined for any other value. */
export function nlsKey(value) {
  const m = typeof value === 'string' ? /^%([^%\s]+)%$/.exec(value) : null;
  return m?.[1];
}
