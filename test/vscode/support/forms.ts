// Helpers for the form suites: an emulator with the demo seed, signed in as the demo super administrator,
// direct HTTP reads of the emulator's state, and access to the open form panels' message handlers.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Emulator } from '../../emulator';
import type { FormPanel } from '../../../src/forms/formPanel';
import { startDemoPortal, stopDemoPortal, type DemoPortal, type PortalKind } from './demoPortal';
import { portalApi } from './extension';
import { portalJson } from './portalHttp';

export interface FormsFixture extends DemoPortal {
  acme: number;
  globex: number;
  groups: Record<string, number>;
  get<T>(path: string): Promise<T>;
}

export async function formsFixture(kind: PortalKind = {}): Promise<FormsFixture> {
  const demo = await startDemoPortal(kind);
  const { emu, token } = demo;
  const get = async <T>(path: string): Promise<T> => {
    const r = await portalJson<T>(emu.url, token, 'GET', path);
    assert.equal(r.status, 200, `GET ${path}: ${JSON.stringify(r.body)}`);
    return r.body;
  };
  const accounts = await get<Array<{ id: number; name: string }>>('/v3/accounts');
  const acme = accounts.find((a) => a.name === 'acme')?.id;
  const globex = accounts.find((a) => a.name === 'globex')?.id;
  assert.ok(acme && globex);
  const groups: Record<string, number> = {};
  for (const accountId of [acme, globex]) {
    for (const g of await get<Array<{ id: number; name: string }>>(`/v2/accounts/${accountId}/groups`))
      groups[g.name] = g.id;
  }
  return { ...demo, acme, globex, groups, get };
}

export async function closeFixture(f: FormsFixture | undefined): Promise<void> {
  if (!f) return;
  const api = await portalApi();
  for (const p of api.testing.forms.panels()) p.dispose();
  await stopDemoPortal(f);
}

/**
 * Mocha hooks for a form suite: one emulator and sign-in for the suite, no fault and no open panel left
 * after each test. `use` receives the fixture once it is ready; `kind` picks the portal's profile or missing reads.
 */
export function useFormsFixture(use: (f: FormsFixture) => void, kind: PortalKind = {}): void {
  let f: FormsFixture | undefined;
  before(async () => {
    f = await formsFixture(kind);
    use(f);
  });
  after(async () => closeFixture(f));
  afterEach(async () => {
    f?.emu.clearFaults();
    for (const p of (await portalApi()).testing.forms.panels()) p.dispose();
  });
}

/** What each panel posted to its webview since the test opened it. */
const records = new WeakMap<FormPanel, unknown[]>();

/** The messages a panel posted to its webview, oldest first (kept from when openForm returned it). */
export function posted(panel: FormPanel): unknown[] {
  let list = records.get(panel);
  if (!list) {
    const kept: unknown[] = [];
    list = kept;
    records.set(panel, kept);
    panel.onDidPost((m) => kept.push(m));
  }
  return list;
}

/** Runs a form command (on a row of the views, or from the palette) and returns its panel, loaded. */
export async function openForm<P extends FormPanel = FormPanel>(command: string, row?: unknown): Promise<P> {
  const panel = (await vscode.commands.executeCommand(command, ...(row === undefined ? [] : [row]))) as P | undefined;
  assert.ok(panel, `${command} opened no panel`);
  posted(panel);
  await panel.whenLoaded();
  return panel;
}

/**
 * The messages posted to the webview since `from`, by type. 'init' is left out: the real webview in the
 * workbench says "ready" on its own schedule, and the host answers it whenever that is.
 */
export function postedTypes(panel: FormPanel, from = 0): string[] {
  return posted(panel)
    .slice(from)
    .map((m) => (m as { type: string }).type)
    .filter((t) => t !== 'init');
}

export function lastPosted<T = Record<string, unknown>>(panel: FormPanel, type: string): T | undefined {
  return [...posted(panel)].reverse().find((m) => (m as { type: string }).type === type) as T | undefined;
}

/** Requests the emulator answered, excluding its control endpoint. */
export function requestCount(emu: Emulator): number {
  return emu.stats().requests;
}
