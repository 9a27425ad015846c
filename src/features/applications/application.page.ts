// Create application, rotate its secret, and show the client credentials once.
import * as l10n from '@vscode/l10n';
import type { VscodeTextfield } from '@vscode-elements/elements/dist/vscode-textfield/vscode-textfield.js';
import {
  APPLICATION_PLATFORMS,
  DEVICE_TYPES,
  type ApplicationState,
  type ApplicationValues,
  type CredentialsMessage,
} from './application.protocol';
import { deviceTypeWord, platformWord } from '../../shared/applicationWords';
import { clear, el, focusWhenReady } from '../../forms/page/dom';
import { section, selectFieldOf, textFieldOf } from '../../forms/page/fields';
import { CLOSE_ID, FormView, type Rendered } from '../../forms/page/form';
import { post } from '../../forms/page/host';

type Form = FormView<ApplicationState, ApplicationValues>;

/** The credentials on screen; emptied on Done, on Close and when the page goes away. */
function credentialsView(): { show(form: Form, m: CredentialsMessage): void } {
  const box = el('section', { id: 'credentials', attrs: { 'aria-label': l10n.t('Client credentials') } });
  let restore = (): void => box.remove();
  const forget = (): void => {
    clear(box);
    restore();
  };
  window.addEventListener('pagehide', forget);
  document.addEventListener('click', (e) => {
    // Close posts "close"; the DOM is emptied first so the secret is gone even before the panel is.
    if ((e.target as HTMLElement | null)?.id === CLOSE_ID) forget();
  });
  return {
    show: (form, m) => {
      showCredentials(box, forget, form, m);
      restore = form.showFirst(box);
      focusWhenReady(document.getElementById('copy-clientSecret'));
    },
  };
}

/** A credential's term and its value, with the button that copies it (the host copies: the page holds no clipboard). */
function credentialEntry(
  what: 'clientId' | 'clientSecret',
  id: string,
  value: string,
  words: { readonly term: string; readonly copy: string },
): HTMLElement[] {
  const button = el('vscode-button', {
    secondary: true,
    textContent: words.copy,
    on: { click: () => post({ type: 'copy', what }) },
  });
  button.id = `copy-${what}`;
  return [
    el('dt', { textContent: words.term }),
    el('dd', {}, el('code', { id, classes: ['secret'], textContent: value }), ' ', button),
  ];
}

/** The warning that the secret is shown only now, worded for a new application or a rotated secret. */
function credentialsWarning(m: CredentialsMessage): HTMLElement {
  return el('p', {
    classes: ['banner', 'warn'],
    textContent:
      m.reason === 'rotated'
        ? l10n.t(
            'The old secret has stopped working. The new one is shown only now: copy it before you close this panel.',
          )
        : l10n.t(
            'The client secret is shown only now: copy it, or use it for this portal, before you close this panel.',
          ),
  });
}

/** The client id and secret, each with its copy button. */
function credentialsList(m: CredentialsMessage): HTMLElement {
  return el(
    'dl',
    { classes: ['kv'] },
    ...credentialEntry('clientId', 'client-id', m.clientId, {
      term: l10n.t('Client id'),
      copy: l10n.t('Copy client id'),
    }),
    ...credentialEntry('clientSecret', 'client-secret', m.clientSecret, {
      term: l10n.t('Client secret'),
      copy: l10n.t('Copy secret'),
    }),
  );
}

/** Done forgets the credentials here and on the host, then closes the panel. */
function doneButton(forget: () => void): HTMLElement {
  return el('vscode-button', {
    id: 'done',
    secondary: true,
    textContent: l10n.t('Done'),
    title: l10n.t('Hides the secret and closes this panel'),
    on: {
      click: () => {
        forget();
        post({ type: 'hideCredentials' });
        post({ type: 'close' });
      },
    },
  });
}

/** The credentials first, then the one way on: Done forgets them here and on the host, and closes the panel. */
function showCredentials(box: HTMLElement, forget: () => void, form: Form, m: CredentialsMessage): void {
  clear(box);
  const status = el('p', { attrs: { role: 'status', 'aria-live': 'polite' }, id: 'credentials-status' });
  const use = el('vscode-button', {
    textContent: l10n.t('Use these credentials for this portal'),
    hidden: m.stored,
    on: { click: () => form.send({ type: 'useCredentials', confirm: 'yes' }) },
  });
  use.id = 'use-credentials';
  box.append(
    el('h2', { textContent: m.reason === 'rotated' ? l10n.t('New client secret') : l10n.t('Client credentials') }),
    credentialsWarning(m),
    credentialsList(m),
    el('div', { classes: ['actions'] }, use, doneButton(forget)),
    status,
  );
  if (m.stored) status.textContent = l10n.t('This portal now signs in with these credentials.');
}

type Values = ApplicationValues;

/** An application that exists: its details, and the button that rotates its secret. */
function renderRotate(
  form: Form,
  state: Extract<ApplicationState, { mode: 'rotate' }>,
  values: Values,
): Rendered<Values> {
  const a = state.application;
  const row = (label: string, value: string) => [
    el('dt', { textContent: label }),
    el('dd', { textContent: value || '—' }),
  ];
  const nodes = [
    el('h1', { textContent: a.name || a.clientId }),
    el('p', {
      classes: ['subtitle'],
      textContent: state.inUse
        ? l10n.t('Application on {0} (this portal signs in with it)', state.portalLabel)
        : l10n.t('Application on {0}', state.portalLabel),
    }),
    el(
      'dl',
      { classes: ['kv'] },
      ...row(l10n.t('Client id'), a.clientId),
      ...row(l10n.t('Description'), a.description),
      ...row(l10n.t('Platform'), platformWord(a.platform)),
      ...row(l10n.t('Device type'), deviceTypeWord(a.deviceType)),
      ...row(l10n.t('Device model'), a.deviceModel),
      ...row(l10n.t('Operating system'), a.deviceOs),
      ...row(l10n.t('App version'), a.appVersion),
      ...row(l10n.t('Bundle id'), a.bundleId),
    ),
    section(
      l10n.t('Rotate the client secret'),
      el('p', {
        classes: ['hint'],
        textContent: state.inUse
          ? l10n.t(
              'The portal issues a new secret and the old one stops working at once. This portal signs in with this application, so the new secret is stored for it automatically.',
            )
          : l10n.t(
              'The portal issues a new secret and the old one stops working at once: every client using it must be given the new one.',
            ),
      }),
    ),
    form.actions(
      el('vscode-button', {
        id: 'rotate',
        textContent: l10n.t('Rotate secret'),
        on: { click: () => form.send({ type: 'rotate', clientId: a.clientId }) },
      }),
    ),
  ];
  return { nodes, read: () => values };
}

/** The name and description of a new application. */
function nameFields(form: Form, values: Values) {
  const name = textFieldOf(form, values, 'name', l10n.t('Name'), { required: true, maxLength: 200 });
  const description = textFieldOf(form, values, 'description', l10n.t('Description'), { maxLength: 2000 });
  return { name, description };
}

/** The platform and device of a new application, in the order they appear. */
function deviceFields(form: Form, values: Values) {
  const platforms = APPLICATION_PLATFORMS.map((p) => ({ value: p, label: platformWord(p) }));
  const platform = selectFieldOf(form, values, 'platform', l10n.t('Platform'), platforms);
  const deviceTypes = DEVICE_TYPES.map((d) => ({ value: d, label: deviceTypeWord(d) }));
  const deviceType = selectFieldOf(form, values, 'deviceType', l10n.t('Device type'), deviceTypes);
  const deviceModel = textFieldOf(form, values, 'deviceModel', l10n.t('Device model'), { maxLength: 200 });
  const deviceOs = textFieldOf(form, values, 'deviceOs', l10n.t('Operating system'), { maxLength: 200 });
  return { platform, deviceType, deviceModel, deviceOs };
}

/** The app version and bundle id of a new application. */
function buildFields(form: Form, values: Values) {
  const appVersion = textFieldOf(form, values, 'appVersion', l10n.t('App version'), { maxLength: 200 });
  const bundleId = textFieldOf(form, values, 'bundleId', l10n.t('Bundle id'), {
    maxLength: 200,
    placeholder: 'com.example.app',
  });
  return { appVersion, bundleId };
}

function createSubtitle(state: ApplicationState): HTMLElement {
  return el('p', {
    classes: ['subtitle'],
    textContent: state.username
      ? l10n.t(
          'An application gives a program its own client id and secret on {0}, owned by {1}.',
          state.portalLabel,
          state.username,
        )
      : l10n.t('An application gives a program its own client id and secret on {0}.', state.portalLabel),
  });
}

/** A new application: its name, platform and device. */
function renderCreate(form: Form, state: ApplicationState, values: Values): Rendered<Values> {
  const { name, description } = nameFields(form, values);
  const { platform, deviceType, deviceModel, deviceOs } = deviceFields(form, values);
  const { appVersion, bundleId } = buildFields(form, values);
  const text = (f: { control: VscodeTextfield }) => f.control.value;
  const read = (): Values => ({
    name: text(name),
    description: text(description),
    platform: platform.read(),
    deviceType: deviceType.read(),
    deviceModel: text(deviceModel),
    deviceOs: text(deviceOs),
    appVersion: text(appVersion),
    bundleId: text(bundleId),
  });
  const nodes = [
    el('h1', { textContent: l10n.t('Create application') }),
    createSubtitle(state),
    name.node,
    description.node,
    el('div', { classes: ['row'] }, platform.node, deviceType.node),
    el('div', { classes: ['row'] }, deviceModel.node, deviceOs.node),
    el('div', { classes: ['row'] }, appVersion.node, bundleId.node),
    form.actions(),
  ];
  return { nodes, read };
}

/** Messages that follow the state: the credentials, and what became of them. */
function onCredentialsMessage(
  credentials: ReturnType<typeof credentialsView>,
  form: Form,
  m: { type: string } & Record<string, unknown>,
): void {
  const status = document.getElementById('credentials-status');
  if (m.type === 'credentials') credentials.show(form, m as unknown as CredentialsMessage);
  else if (m.type === 'copied' && status)
    status.textContent =
      m.what === 'clientSecret'
        ? l10n.t('Secret copied to the clipboard.')
        : l10n.t('Client id copied to the clipboard.');
  else if (m.type === 'stored') {
    if (status) status.textContent = String(m.message);
    const use = document.getElementById('use-credentials');
    if (use) use.hidden = true;
  }
}

/** Renders this form in the page the host opened; nothing of it runs for another form. */
export function startApplicationPage(): void {
  const credentials = credentialsView();
  new FormView<ApplicationState, Values>({
    saveLabel: (s) => (s.mode === 'create' ? l10n.t('Create') : undefined),
    draftKey: (s) => (s.mode === 'create' ? 'application:new' : `application:${s.application.clientId}`),
    valuesOf: (s) => s.values,
    render: (form, state, values) =>
      state.mode === 'rotate' ? renderRotate(form, state, values) : renderCreate(form, state, values),
    onMessage: (form, m) => onCredentialsMessage(credentials, form, m),
  });
}
