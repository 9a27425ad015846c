/**
 * Rename an application and edit its description (PATCH /v3/applications/{clientId} with that one field). The
 * current text is read from the portal first, so the box starts from what is there now rather than from a row that
 * may be stale; a text the portal refuses is offered again, with its reason, so nothing typed is lost.
 */
import * as vscode from 'vscode';
import { isPortalError, type Application } from '../../api';
import type { PortalRegistry } from '../../auth/portalRegistry';
import { errorMessage } from '../../shared/errors';
import type { ApplicationRef } from '../../shared/refs';
import type { SettingsWriter } from '../../ui/settingsWriter';
import { answered, type Ui } from '../../ui/ui';

/** The fields of the application this edits; both are free text. */
type EditableField = 'name' | 'description';

/** The create form's limits, so a text it would refuse is refused here too. */
const MAX_LENGTH: Record<EditableField, number> = { name: 200, description: 2000 };
/** A portal that refuses every text cannot keep the box coming back. */
const MAX_ATTEMPTS = 5;

interface EditDeps {
  readonly registry: PortalRegistry;
  readonly settings: SettingsWriter;
  /** The portal's applications changed: the view asks again. */
  readonly changed: (portalId: string) => void;
}

function question(field: EditableField, app: ApplicationRef, value: string, refused: string | undefined) {
  const limit = MAX_LENGTH[field];
  const rename = field === 'name';
  return {
    id: rename ? 'application.rename' : 'application.description',
    title: rename ? vscode.l10n.t('Rename {0}', app.label) : vscode.l10n.t('Description of {0}', app.label),
    prompt: refused
      ? vscode.l10n.t('The portal refused this text: {0}', refused)
      : rename
        ? vscode.l10n.t("The application's new name")
        : vscode.l10n.t('What the application is for. Empty removes the description.'),
    value,
    validate: (v: string): string | undefined => {
      if (rename && !v.trim()) return vscode.l10n.t('Enter a name.');
      return v.trim().length > limit ? vscode.l10n.t('At most {0} characters.', limit) : undefined;
    },
  } as const;
}

/** What the portal said about the field, else its whole message. */
function refusal(error: unknown, field: EditableField): string {
  const own = isPortalError(error) ? error.fieldErrors?.find((f) => f.field === field) : undefined;
  return own?.message ?? errorMessage(error);
}

/** True when the portal took a new text; false when the text was left as it was. */
export async function editApplicationField(
  deps: EditDeps,
  ui: Ui,
  app: ApplicationRef,
  field: EditableField,
): Promise<boolean> {
  const client = deps.registry.client(app.portalId);
  const current = await ui.progress(
    { id: 'application.load', title: vscode.l10n.t('Reading {0}…', app.label), where: 'window' },
    () => client.v3.applications.get(app.clientId),
  );
  let value = current[field];
  let refused: string | undefined;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const typed = answered(await ui.input(question(field, app, value, refused))).trim();
    if (typed === current[field].trim()) return false;
    const update = field === 'name' ? { name: typed } : { description: typed };
    const change = { resource: 'application', action: 'update', clientId: app.clientId, update } as const;
    try {
      const sent = await deps.settings.write(
        { portalId: app.portalId, accountId: 0 },
        change,
        {
          label: app.label,
          title:
            field === 'name'
              ? vscode.l10n.t('Rename the application {0} to {1}', app.label, typed)
              : vscode.l10n.t('Edit the description of {0}', app.label),
        },
        'single',
      );
      const saved = sent.answer as Application;
      deps.changed(app.portalId);
      void deps.settings.summary(
        ui,
        sent.applyId,
        change,
        field === 'name'
          ? vscode.l10n.t('Renamed the application to "{0}".', saved.name || typed)
          : vscode.l10n.t('Saved the description of "{0}".', saved.name || app.label),
      );
      return true;
    } catch (error) {
      if (!isPortalError(error, 'invalid-input')) throw error;
      value = typed;
      refused = refusal(error, field);
    }
  }
  throw new Error(vscode.l10n.t('The portal refused the text {0} times; nothing was changed.', MAX_ATTEMPTS));
}
