// The extension's package.json as the tests see it: read at run time (the lead grows
// `contributes` as features land), never copied into a test.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { RUN_CONTEXT_FILE, TEST_ENV, type RunContext } from '../protocol';

export interface ContributedCommand {
  command: string;
  title?: string;
}

export interface ContributedView {
  id: string;
  name?: string;
  /** The key it is listed under in contributes.views: a built-in container (explorer, scm, ...) or one of ours. */
  container: string;
}

export interface Manifest {
  name: string;
  publisher: string;
  version: string;
  contributes?: {
    commands?: ContributedCommand[];
    views?: Record<string, { id: string; name?: string }[]>;
    viewsContainers?: Record<string, { id: string; title?: string }[]>;
  };
}

/** What the runner told this run (environment first, run-context.json next to the bundle second). */
export function runContext(): RunContext | undefined {
  try {
    return JSON.parse(fs.readFileSync(path.join(__dirname, RUN_CONTEXT_FILE), 'utf8')) as RunContext;
  } catch {
    return undefined;
  }
}

/** The repository root, whose package.json is the extension's manifest. */
export function extensionRoot(): string {
  return process.env[TEST_ENV.extensionRoot] || runContext()?.extensionRoot || path.resolve(__dirname, '..', '..');
}

export function readManifest(root = extensionRoot()): Manifest {
  const raw: unknown = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  if (!raw || typeof raw !== 'object') throw new Error(`${root}/package.json is not an object`);
  const m = raw as Partial<Manifest>;
  if (typeof m.name !== 'string' || typeof m.publisher !== 'string' || typeof m.version !== 'string') {
    throw new Error(`${root}/package.json lacks name, publisher or version`);
  }
  return m as Manifest;
}

/** `${publisher}.${name}`, the id VS Code knows the extension by. */
export function extensionId(manifest: Manifest): string {
  return `${manifest.publisher}.${manifest.name}`;
}

export function contributedCommands(manifest: Manifest): string[] {
  return (manifest.contributes?.commands ?? []).map((c) => c.command);
}

export function contributedViews(manifest: Manifest): ContributedView[] {
  const views: ContributedView[] = [];
  for (const [container, list] of Object.entries(manifest.contributes?.views ?? {})) {
    for (const view of list) views.push({ id: view.id, name: view.name, container });
  }
  return views;
}

/** Our own view containers (activity bar and panel), by id. */
export function contributedViewContainers(manifest: Manifest): string[] {
  return Object.values(manifest.contributes?.viewsContainers ?? {})
    .flat()
    .map((c) => c.id);
}
