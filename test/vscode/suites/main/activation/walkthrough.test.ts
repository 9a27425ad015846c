// The first-run walkthrough: what VS Code reads from package.json (translated texts, media it can draw in any theme,
// links to commands that exist, steps that complete on events that happen: a context key the extension sets, a view
// it contributes, a command it registers). That the page opens and its steps tick when a person signs in, browses and
// edits is shown by the Playwright flow (test/e2e/auth.e2e.ts), which watches the walkthrough page: the extension
// host's tab list does not follow the walkthrough editor's title, so this tier cannot tell which walkthrough opened.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { EXTENSION_ID, portalApi } from '../../../support/extension';
import { contributedCommands, contributedViews, extensionRoot, readManifest } from '../../../support/manifest';

interface Step {
  id: string;
  title: string;
  description: string;
  media: { svg?: string; image?: string; altText?: string };
  completionEvents?: string[];
}
interface Walkthrough {
  id: string;
  title: string;
  description: string;
  steps: Step[];
}

const walkthroughsOf = (json: unknown): Walkthrough[] =>
  (json as { contributes?: { walkthroughs?: Walkthrough[] } }).contributes?.walkthroughs ?? [];

/** Context keys the extension sets (src/**: setContext calls), so an onContext: event can happen. */
function contextKeysSet(): Set<string> {
  const keys = new Set<string>();
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (file.endsWith('.ts')) {
        for (const m of fs.readFileSync(file, 'utf8').matchAll(/'setContext',\s*'([^']+)'/g)) if (m[1]) keys.add(m[1]);
      }
    }
  };
  walk(path.join(extensionRoot(), 'src'));
  return keys;
}

describe('Walkthrough: Get Started with Portal', () => {
  const manifest = readManifest();
  const [raw] = walkthroughsOf(manifest);

  it('has three steps (sign in, browse, edit assignments), each translated through package.nls.json', () => {
    assert.ok(raw, 'package.json contributes a walkthrough');
    assert.deepEqual(
      raw.steps.map((s) => s.id),
      ['signIn', 'browse', 'editAssignments'],
    );
    const nls = JSON.parse(fs.readFileSync(path.join(extensionRoot(), 'package.nls.json'), 'utf8')) as Record<
      string,
      string
    >;
    const texts = [
      raw.title,
      raw.description,
      ...raw.steps.flatMap((s) => [s.title, s.description, s.media.altText ?? '']),
    ];
    for (const text of texts) {
      const key = /^%(.+)%$/.exec(text)?.[1];
      assert.ok(key, `"${text}" is a %key%, so it can be translated`);
      assert.ok(nls[key], `package.nls.json has ${key}`);
    }
    // What VS Code shows: the running extension's manifest with the keys replaced.
    const shown = walkthroughsOf(vscode.extensions.getExtension(EXTENSION_ID)?.packageJSON);
    assert.equal(shown[0]?.title, nls['walkthrough.title']);
    assert.match(
      shown[0]?.steps[0]?.description ?? '',
      /npm run demo.*\*\*demo\*\*/s,
      'the first step says how to get a demo portal',
    );
  });

  it('completes each step on an event that happens, and on a context key set from what was already done: signed in, the Portal view shown, Edit Assignments opened', () => {
    const commands = new Set(contributedCommands(manifest));
    const views = new Set(contributedViews(manifest).map((v) => v.id));
    const keys = contextKeysSet();
    assert.deepEqual(
      raw?.steps.map((s) => s.completionEvents),
      [
        ['onContext:portal.signedIn'],
        ['onView:portal.explorer', 'onContext:portal.explorerShown'],
        ['onCommand:portal.editMemberAssignments', 'onContext:portal.assignmentsOpened'],
      ],
    );
    for (const event of (raw?.steps ?? []).flatMap((s) => s.completionEvents ?? [])) {
      const [kind, name = ''] = event.split(/:(.*)/s);
      if (kind === 'onCommand') assert.ok(commands.has(name), `${event}: a contributed command`);
      else if (kind === 'onView') assert.ok(views.has(name), `${event}: a contributed view`);
      else if (kind === 'onContext') assert.ok(keys.has(name), `${event}: a context key the extension sets`);
      else assert.fail(`${event}: an event this test does not know`);
    }
  });

  it('links only commands that exist', async () => {
    await portalApi();
    const registered = new Set(await vscode.commands.getCommands(true));
    const links = (raw?.steps ?? []).flatMap((s) => {
      const nls = JSON.parse(fs.readFileSync(path.join(extensionRoot(), 'package.nls.json'), 'utf8')) as Record<
        string,
        string
      >;
      return [...(nls[s.description.slice(1, -1)] ?? '').matchAll(/\(command:([\w.]+)\)/g)].map((m) => m[1] ?? '');
    });
    assert.deepEqual(links, [
      'portal.signIn',
      'portal.signInWithClientCredentials',
      'portal.explorer.focus',
      'portal.members.focus',
    ]);
    for (const command of links) assert.ok(registered.has(command), `${command} is registered`);
  });

  it("shows media drawn in the theme's colours, so it reads in light, dark and high-contrast themes", () => {
    for (const step of raw?.steps ?? []) {
      assert.ok(
        step.media.svg,
        `${step.id}: an SVG, which VS Code renders inline, in a page that defines the theme's colours`,
      );
      const svg = fs.readFileSync(path.join(extensionRoot(), step.media.svg), 'utf8');
      assert.match(svg, /^<svg [^>]*viewBox="0 0 480 300"/);
      const colours = [...svg.matchAll(/\s(?:fill|stroke)="([^"]*)"/g)].map((m) => m[1] ?? '');
      assert.ok(colours.length > 10, `${step.id}: drawn`);
      for (const colour of colours)
        assert.match(
          colour,
          /^(var\(--vscode-[\w-]+, #[0-9a-f]{3,8}\)|none)$/i,
          `${step.id}: ${colour} follows the theme`,
        );
      // The page's CSP allows no style element and no style attribute: they would be dropped, leaving black shapes.
      assert.doesNotMatch(svg, /<style|\sstyle=|\sclass=/, `${step.id}: presentation attributes only`);
      assert.doesNotMatch(svg, /<script|href=|<image/i, `${step.id}: nothing but drawing`);
    }
  });
});
