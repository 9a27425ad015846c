import * as vscode from 'vscode';
import { APPLICATION_DETAILS, isPortalError, PortalError, type Application, type ApplicationDraft } from '../../api';
import { readApplication } from './applicationRead';
import {
  applicationCommands,
  type ApplicationCommand,
  type ApplicationState,
  type ApplicationSummary,
  type ApplicationValues,
  type CredentialsMessage,
} from './application.protocol';
import { FormPanel, type FormEnv, type SaveOutcome } from '../../forms/formPanel';
import { clientOf, type AccountContext } from '../../forms/context';
import { inputError } from '../../forms/inputError';
import type { FormKey } from '../../shared/keys';
import { noUndoText, type SettingsWriter } from '../../ui/settingsWriter';

type ApplicationContext = Pick<AccountContext, 'registry' | 'portalId' | 'afterSave'> & {
  readonly clientId?: string;
  readonly settings: SettingsWriter;
};

interface HeldCredentials {
  clientId: string;
  clientSecret: string;
  reason: CredentialsMessage['reason'];
  stored: boolean;
}

const EMPTY: ApplicationValues = {
  name: '',
  description: '',
  platform: 'OTHER',
  deviceType: 'Other',
  deviceModel: '',
  deviceOs: '',
  appVersion: '',
  bundleId: '',
};

function summary(a: Application): ApplicationSummary {
  return {
    clientId: a.clientId,
    name: a.name,
    description: a.description,
    platform: a.platform,
    deviceType: a.deviceType,
    deviceModel: a.deviceModel,
    deviceOs: a.deviceOs,
    appVersion: a.appVersion,
    bundleId: a.bundleId,
  };
}

/**
 * Create application (create mode) and rotate its secret (rotate mode). The client secret the portal returns
 * is held here only while the panel is open: it is posted to the webview for display (never into the
 * webview's saved state), copied to the clipboard from this copy on request, stored in SecretStorage only
 * when the user asks, and dropped when the panel closes. It is never logged.
 */
export class ApplicationForm extends FormPanel<ApplicationState, ApplicationValues, ApplicationCommand> {
  private state: ApplicationState | undefined;
  private credentials: HeldCredentials | undefined;

  constructor(
    env: FormEnv,
    key: FormKey,
    private readonly ctx: ApplicationContext,
  ) {
    super(
      env,
      'application',
      key,
      ctx.clientId ? vscode.l10n.t('Application') : vscode.l10n.t('Create Application'),
      applicationCommands,
    );
    this.start();
  }

  private connection() {
    const c = this.ctx.registry.get(this.ctx.portalId);
    if (!c) throw new Error(vscode.l10n.t('This portal is no longer in the list.'));
    return c;
  }

  protected async load(): Promise<ApplicationState> {
    const c = this.connection();
    const base = { portalLabel: c.entry.label, username: c.username ?? '' };
    if (!this.ctx.clientId) {
      this.state = { mode: 'create', ...base, values: EMPTY, notices: [] };
    } else {
      const { application: app, fromList } = await readApplication(clientOf(this.ctx), this.ctx.clientId);
      const notices = fromList
        ? [
            vscode.l10n.t(
              'The portal did not answer the application read; the details shown come from the application list.',
            ),
          ]
        : [];
      this.state = {
        mode: 'rotate',
        ...base,
        application: summary(app),
        inUse: c.clientId === app.clientId,
        values: EMPTY,
        notices,
      };
    }
    return this.state;
  }

  protected valuesOf(command: ApplicationCommand): ApplicationValues | string {
    if (command.type !== 'save') return 'not a save';
    if (this.state?.mode !== 'create') return 'this panel does not create an application';
    return command.values;
  }

  protected async save(values: ApplicationValues): Promise<SaveOutcome<ApplicationState>> {
    const state = this.state;
    if (state?.mode !== 'create') throw new Error(vscode.l10n.t('This panel does not create an application.'));
    if (!values.name.trim()) throw inputError([{ field: 'name', message: vscode.l10n.t('Enter a name.') }]);
    const draft: ApplicationDraft = {
      name: values.name.trim(),
      platform: values.platform,
      deviceType: values.deviceType,
    };
    // Blank optional fields are left out rather than sent as "" (the spec does not say which are required).
    for (const key of ['description', 'deviceModel', 'deviceOs', 'appVersion', 'bundleId'] as const) {
      const v = values[key].trim();
      if (v) draft[key] = v;
    }
    const { answer } = await this.ctx.settings.write(
      { portalId: this.ctx.portalId, accountId: 0 },
      { resource: 'application', action: 'create', draft },
      { label: draft.name, title: vscode.l10n.t('Create the application {0}', draft.name) },
    );
    const app = answer as Application;
    if (!app.clientSecret)
      throw new Error(vscode.l10n.t('The portal created the application but returned no client secret.'));
    this.credentials = { clientId: app.clientId, clientSecret: app.clientSecret, reason: 'created', stored: false };
    this.ctx.afterSave();
    this.state = {
      mode: 'rotate',
      portalLabel: state.portalLabel,
      username: state.username,
      application: summary(app),
      inUse: false,
      values: EMPTY,
      notices: [],
    };
    return { message: vscode.l10n.t('Created the application "{0}".', app.name), state: this.state };
  }

  protected override afterState(): void {
    if (this.credentials) this.postCredentials();
  }

  protected override async onCommand(command: ApplicationCommand): Promise<void> {
    switch (command.type) {
      case 'rotate':
        return this.rotate(command.clientId);
      case 'copy': {
        const held = this.credentials;
        if (!held) return this.warn('dropped "copy": there are no credentials to copy');
        await this.env.ui().copy(command.what === 'clientId' ? held.clientId : held.clientSecret);
        this.post({ type: 'copied', what: command.what });
        return;
      }
      case 'useCredentials':
        return this.useCredentials();
      case 'hideCredentials':
        // The secret leaves this panel for good: a webview reloaded after being hidden gets no copy back.
        this.credentials = undefined;
        return;
      default:
        return super.onCommand(command);
    }
  }

  protected override onDispose(): void {
    this.credentials = undefined;
  }

  protected fieldOf(apiField: string): string | undefined {
    return (APPLICATION_DETAILS as readonly string[]).includes(apiField) ? apiField : undefined;
  }

  private async rotate(clientId: string): Promise<void> {
    const state = this.state;
    if (state?.mode !== 'rotate' || state.application.clientId !== clientId) {
      return this.warn('dropped "rotate": it names another application');
    }
    // Marked busy before asking, so the page waits for the answer however long the user takes to give it.
    await this.busy('rotate', async () => {
      if (!(await this.confirmRotate(state.application, state.inUse))) return;
      const name = state.application.name || clientId;
      const app = await this.ctx.settings
        .write(
          { portalId: this.ctx.portalId, accountId: 0 },
          { resource: 'application', action: 'rotate-secret', clientId },
          { label: name, title: vscode.l10n.t('Rotate the secret of {0}', name) },
        )
        .then(({ answer }) => answer as Application | undefined)
        .catch((err: unknown) => {
          // A success with no body at all is no new secret either.
          if (isPortalError(err, 'invalid-response') && err.status === 200) return undefined;
          throw err;
        });
      if (!app?.clientSecret) {
        throw new PortalError({
          kind: 'server',
          endpoint: '',
          message: vscode.l10n.t(
            'The portal accepted the request but did not apply it: it returned no new secret. The old secret may still work; check it before you rotate again.',
          ),
        });
      }
      this.credentials = { clientId, clientSecret: app.clientSecret, reason: 'rotated', stored: false };
      // Rotating the application this portal signs in with makes the stored secret stale at once: store the
      // new one right away, or the next request would sign the user out.
      if (state.inUse) await this.store();
      this.postCredentials();
      this.ctx.afterSave();
    });
  }

  /** Rotating breaks every client that still uses the old secret, so it is asked first, naming the application. */
  private confirmRotate(app: ApplicationSummary, inUse: boolean): Promise<boolean> {
    const name = app.name || app.clientId;
    return this.env.ui().confirm({
      id: 'application.rotate',
      message: vscode.l10n.t('Rotate the secret of "{0}"?', name),
      detail: [
        vscode.l10n.t(
          'The old secret stops working at once: every client that uses it stops working until it is given the new one.',
        ),
        ...(inUse
          ? [vscode.l10n.t('This VS Code window signs in with "{0}"; it is given the new secret automatically.', name)]
          : []),
        noUndoText({ resource: 'application', action: 'rotate-secret', clientId: app.clientId }),
      ].join('\n\n'),
      action: vscode.l10n.t('Rotate Secret'),
    });
  }

  private async useCredentials(): Promise<void> {
    if (!this.credentials) return this.warn('dropped "useCredentials": there are no credentials to use');
    await this.busy('useCredentials', async () => {
      await this.store();
      this.post({
        type: 'stored',
        message: vscode.l10n.t('{0} now signs in with this application.', this.connection().entry.label),
      });
    });
  }

  private async store(): Promise<void> {
    const held = this.credentials;
    if (!held) return;
    const c = this.connection();
    const createdHere = held.reason === 'created' || c.applicationCreatedHere;
    await this.ctx.registry.add(c.entry, {
      clientId: held.clientId,
      clientSecret: held.clientSecret,
      username: c.username ?? '',
      applicationCreatedHere: createdHere,
    });
    held.stored = true;
    if (this.state?.mode === 'rotate') this.state = { ...this.state, inUse: true };
  }

  private postCredentials(): void {
    const held = this.credentials;
    if (!held) return;
    const message: CredentialsMessage = {
      type: 'credentials',
      clientId: held.clientId,
      clientSecret: held.clientSecret,
      stored: held.stored,
      reason: held.reason,
    };
    this.post({ ...message });
  }
}
