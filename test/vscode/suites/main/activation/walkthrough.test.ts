// The first-run walkthrough: what VS Code reads from package.json (translated texts, media it can draw in any theme,
// links to commands that exist, steps that complete on events that happen: a context key the extension sets, a view
// it contributes, a command it registers), and the context keys its steps wait for, read back through the test handle
// as the window's state changes. That the page opens and its steps tick when a person signs in, browses and edits is
// shown by the Playwright flows (test/e2e/auth.e2e.ts, and test/e2e/firsthour.e2e.ts, which also restarts the workbench
// with the walkthrough's own memory reset and sees every step ticked from the state alone): the extension host's tab
// list does not follow the walkthrough editor's title, so this tier cannot tell which walkthrough opened.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { startDemoPortal, stopDemoPortal, type DemoPortal } from '../../../support/demoPortal';
import { EXTENSION_ID, portalApi } from '../../../support/extension';
import { openForm } from '../../../support/forms';
import { contributedCommands, contributedViews, extensionRoot, readManifest } from '../../../support/manifest';
import { nodeOf } from '../../../support/tree';
import { waitFor } from '../../../../support/wait';

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
        for (const m of fs.readFileSync(file, 'utf8').matchAll(/(?:'setContext',\s*|setContextKey\()'([^']+)'/g))
          if (m[1]) keys.add(m[1]);
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

  it('ticks each step from the state the window is in: signed in, the Portal view on screen, Edit Assignments opened', async function () {
    this.timeout(180_000);
    const api = await portalApi();
    const key = (name: string) => api.testing.contextKey(name);
    const anySignedIn = () => api.registry.list().some((c) => c.client !== undefined);
    /** A key the extension sets when an event reaches it: true within a bounded wait, else what it says. */
    const becomesTrue = async (name: string): Promise<boolean | undefined> => {
      await waitFor(() => key(name) === true, `${name} is set`).catch(() => undefined);
      return key(name);
    };
    assert.equal(key('portal.signedIn'), anySignedIn(), 'set at activation from the portals signed in then');
    let p: DemoPortal | undefined;
    try {
      p = await startDemoPortal();
      assert.equal(await becomesTrue('portal.signedIn'), true, 'signed in: "Sign in to a portal" ticks');
      await vscode.commands.executeCommand('portal.explorer.focus');
      assert.equal(await becomesTrue('portal.explorerShown'), true, 'the Portal view shown: "Browse" ticks');
      const member = await nodeOf({ kind: 'member', portalId: p.portalId, accountId: 1, username: 'member' });
      const panel = await openForm('portal.editMemberAssignments', member);
      panel.dispose();
      assert.equal(key('portal.assignmentsOpened'), true, 'Edit Assignments opened: the last step ticks');
    } finally {
      await stopDemoPortal(p ?? {});
    }
    await waitFor(() => key('portal.signedIn') === anySignedIn(), 'after a sign-out the key says what the portals say');
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
