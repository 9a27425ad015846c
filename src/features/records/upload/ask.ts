/**
 * The questions of an upload, in the order they are asked once its place is known (the row's, or asked through
 * targets/): which files (a drop brings its own), then, once the plan is made, what each name already there gets,
 * and whether to send what the plan says. Nothing is sent before the last answer.
 */
import * as vscode from 'vscode';
import type { UploadUnit } from '../../../engine/uploads/kind';
import type { ClashChoice, UploadPlan } from '../../../engine/uploads/plan';
import { unitsOf } from '../../../engine/uploads/units';
import { count } from '../../../shared/format';
import { answered, type PickItem, type Ui } from '../../../ui/ui';
import { workspaceFolder } from '../../../ui/vscodeUi';
import type { UploadPlace } from './place';
import { confirmation } from './words';

/**
 * The local files (or the one folder) to upload. The dialog opens in the workspace: left to VS Code, it opens where
 * the last dialog was (a report's folder).
 */
export async function askFiles(ui: Ui, place: UploadPlace, dialog: 'files' | 'folder'): Promise<string[]> {
  const title = vscode.l10n.t('Upload to {0}', place.label);
  const options = { title, openLabel: vscode.l10n.t('Upload'), start: workspaceFolder() };
  const paths =
    dialog === 'folder'
      ? await ui.pickFolder({ id: 'upload.folder', ...options }).then((p) => (p === undefined ? undefined : [p]))
      : await ui.pickFiles({ id: 'upload.files', ...options });
  return answered(paths);
}

/** The units to send: each clash as chosen, then the whole plan confirmed; undefined when the user says no. */
export async function confirmPlan(ui: Ui, place: UploadPlace, plan: UploadPlan): Promise<UploadUnit[] | undefined> {
  const into = destination(place, plan);
  const choices = await clashChoices(ui, plan, into);
  const units = unitsOf(plan, choices);
  const question = confirmation(place, plan, units.length, into.path);
  return (await ui.confirm({ id: 'upload.confirm', ...question })) ? units : undefined;
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

function choiceItems(): Array<PickItem<ClashChoice>> {
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
