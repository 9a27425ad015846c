/**
 * Upload Files… / Upload Folder… (and a drop on a group or folder row): read the target folder's index, plan the
 * upload (files, folders, size, each clash with its choice, the names refused and why), ask once, then run it as a
 * job of the engine, with progress, time left and cancel. A portal without the upload endpoints (a spec-only one)
 * is told once, plainly, and nothing changes. The engine's uploads kind does the work (src/engine/uploads).
 */
import * as vscode from 'vscode';
import { refusesUploads, type PortalClient } from '../../../api/index';
import type { RunProgress } from '../../../engine/runner';
import type { UploadUnit } from '../../../engine/uploads/kind';
import { planUpload, type ClashChoice, type UploadPlan } from '../../../engine/uploads/plan';
import { runUploads, unitsOf, type UploadResult } from '../../../engine/uploads/run';
import { count, humanSize } from '../../../shared/format';
import { answered, type Progress, type Ui } from '../../../ui/ui';
import type { UploadPlace } from './place';
import { refusalText } from './words';
import { cancellableProgress } from '../../../ui/cancellableProgress';

/** The group, and the folder in it: how a resume offer names where the files go. */
function targetName(place: UploadPlace): string {
  return place.target.folderId === 0 ? place.group.label : `${place.group.label} / ${place.label}`;
}

export interface UploadDeps {
  readonly client: (portalId: string) => PortalClient;
  readonly storageFolder: string;
  readonly log: vscode.LogOutputChannel;
  /** The Explorer reads the place again once files landed. */
  readonly refresh: () => void;
}

/** The spec has no file writes: said once per portal, then the same sentence each time it is tried again. */
function refusedByPortal(ui: Ui, place: UploadPlace): void {
  ui.notify(
    'warning',
    vscode.l10n.t(
      '{0} does not accept uploads: the upload endpoints other clients of this service use are not there. Nothing was changed.',
      place.group.account.label,
    ),
  );
}

/**
 * Plans, asks, runs. The result, or undefined when nothing was sent. Texts name the portal's things as they are:
 * the Ui makes every text plain (no link, no icon) on its way to VS Code.
 */
export async function upload(
  ui: Ui,
  deps: UploadDeps,
  place: UploadPlace,
  localPaths: readonly string[],
): Promise<UploadResult | undefined> {
  const client = deps.client(place.target.portalId);
  let index: ReadonlyMap<string, number>;
  try {
    index = await client.uploads.index(place.target);
  } catch (e) {
    if (!refusesUploads(e)) throw e;
    refusedByPortal(ui, place);
    return undefined;
  }
  const plan = await planUpload(place.target, localPaths, index);
  const first = plan.refused[0];
  if (plan.files.length === 0) {
    ui.notify(
      'warning',
      first
        ? vscode.l10n.t('Nothing to upload to {0}: {1}', place.label, refusalText(first))
        : vscode.l10n.t('Nothing to upload to {0}: no files were chosen.', place.label),
    );
    return undefined;
  }
  const into = destination(place, plan);
  const choices = await clashChoices(ui, plan, into);
  const units = unitsOf(plan, choices);
  if (!(await confirmPlan(ui, plan, units.length, place, into.path))) return undefined;
  const result = await cancellableProgress(
    ui,
    'upload.progress',
    vscode.l10n.t('Uploading to {0}', place.label),
    (progress, signal) =>
      runUploads(client, plan, units, {
        storageFolder: deps.storageFolder,
        signal,
        onProgress: meter(progress, plan),
        title: vscode.l10n.t('Upload to {0}', place.label),
        targetName: targetName(place),
      }),
  );
  deps.refresh();
  tell(ui, deps, place, result);
  return result;
}

/**
 * Where the files land: the place and the folders every planned file goes below ("Marketing/campaigns/q1-docs/"),
 * and that folder part of their paths, which the clash question leaves out of each name.
 */
function destination(place: UploadPlace, plan: UploadPlan): { path: string; below: string } {
  let common: string[] | undefined;
  for (const f of plan.files) {
    const folders = f.path.split('/').slice(0, -1);
    let n = 0;
    while (n < (common ?? folders).length && (common ?? folders)[n] === folders[n]) n++;
    common = (common ?? folders).slice(0, n);
  }
  const below = (common ?? []).map((c) => `${c}/`).join('');
  return { path: `${place.path}${below}`, below };
}

/** Each clash's choice: skip unless said otherwise; one question for all (naming them), or one per file. */
async function clashChoices(
  ui: Ui,
  plan: UploadPlan,
  into: { path: string; below: string },
): Promise<Map<string, ClashChoice>> {
  const clashes = plan.files.filter((f) => f.existingId !== undefined);
  const out = new Map<string, ClashChoice>();
  const name = (path: string): string => path.slice(into.below.length);
  const [first, ...more] = clashes;
  if (!first) return out;
  const items = choiceItems();
  const all = answered(
    await ui.pick<ClashChoice | 'each'>(
      [...items, { label: vscode.l10n.t('Choose for Each File…'), value: 'each' as const }],
      {
        id: 'upload.clashes',
        title: vscode.l10n.t('Upload to {0}', into.path),
        placeHolder:
          more.length === 0
            ? vscode.l10n.t('{0} is already there. What should it get?', name(first.path))
            : vscode.l10n.t(
                '{0} and {1} more are already there. What should they get?',
                name(first.path),
                count(more.length),
              ),
      },
    ),
  );
  for (const f of clashes) {
    const choice =
      all !== 'each'
        ? all
        : answered(
            await ui.pick<ClashChoice>(items, {
              id: 'upload.clash',
              placeHolder: vscode.l10n.t('{0} is already there.', name(f.path)),
            }),
          );
    out.set(f.path, choice);
  }
  return out;
}

function choiceItems(): Array<{ label: string; description?: string; value: ClashChoice }> {
  return [
    {
      label: vscode.l10n.t('Skip'),
      description: vscode.l10n.t('keep the portal’s file as it is (default)'),
      value: 'skip',
    },
    {
      label: vscode.l10n.t('New Version'),
      description: vscode.l10n.t('replace its content; its history keeps the old'),
      value: 'version',
    },
    {
      label: vscode.l10n.t('Keep Both'),
      description: vscode.l10n.t('upload under a new name, "name (1)"'),
      value: 'keep-both',
    },
  ];
}

const filesWord = (n: number): string => (n === 1 ? vscode.l10n.t('1 file') : vscode.l10n.t('{0} files', count(n)));

/** The plan in words, before anything is sent: where the files land; it says that an upload cannot be undone. */
function confirmPlan(ui: Ui, plan: UploadPlan, units: number, place: UploadPlace, into: string): Promise<boolean> {
  const clashes = plan.files.filter((f) => f.existingId !== undefined).length;
  const folders = plan.folders.length;
  const lines = [
    folders === 0
      ? vscode.l10n.t('{0} into {1}, {2}.', filesWord(plan.files.length), into, humanSize(plan.bytes))
      : vscode.l10n.t(
          '{0} into {1} ({2}), {3}.',
          filesWord(plan.files.length),
          into,
          folders === 1 ? vscode.l10n.t('1 folder') : vscode.l10n.t('{0} folders', count(folders)),
          humanSize(plan.bytes),
        ),
  ];
  if (clashes > 0)
    lines.push(
      clashes === 1
        ? vscode.l10n.t('1 name is already there; {0} will be sent.', filesWord(units))
        : vscode.l10n.t('{0} names are already there; {1} will be sent.', count(clashes), filesWord(units)),
    );
  for (const r of plan.refused.slice(0, 5)) lines.push(refusalText(r));
  if (plan.refused.length > 5)
    lines.push(vscode.l10n.t('… and {0} more not uploaded.', count(plan.refused.length - 5)));
  lines.push(
    vscode.l10n.t('An upload cannot be undone: the portal offers no way to delete or take back an uploaded file.'),
  );
  return ui.confirm({
    id: 'upload.confirm',
    message: vscode.l10n.t('Upload {0} files to {1}?', count(units), place.label),
    detail: lines.join('\n'),
    action: vscode.l10n.t('Upload'),
  });
}

function meter(progress: Progress, plan: UploadPlan): (p: RunProgress<UploadUnit>) => void {
  return (p) => {
    const left = p.etaMs === undefined ? '' : ` · ${vscode.l10n.t('about {0} s left', Math.ceil(p.etaMs / 1000))}`;
    progress.report({
      increment: 100 / Math.max(1, p.total),
      message: `${vscode.l10n.t('{0} of {1} files', count(p.done), count(p.total))} (${humanSize(plan.bytes)})${left}`,
    });
  };
}

function tell(ui: Ui, deps: UploadDeps, place: UploadPlace, r: UploadResult): void {
  const outcomes = [...r.outcomes.values()];
  const done = outcomes.filter((o) => o.result === 'done').length;
  const failed = outcomes.filter((o) => o.result === 'failed');
  for (const f of failed) deps.log.warn(`upload: ${f.message}`);
  const notStarted = r.units.length - outcomes.length;
  const parts = [vscode.l10n.t('{0} of {1} files uploaded to {2}.', count(done), count(r.units.length), place.label)];
  if (failed.length > 0)
    parts.push(
      vscode.l10n.t('{0} failed (see the Portal log), the first: {1}', count(failed.length), failed[0]?.message ?? ''),
    );
  if (notStarted > 0) parts.push(vscode.l10n.t('{0} not sent.', count(notStarted)));
  ui.notify(failed.length > 0 || notStarted > 0 ? 'warning' : 'info', parts.join(' '));
}
