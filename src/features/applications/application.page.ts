// Create application, rotate its secret, and show the client credentials once.
import type { VscodeTextfield } from '@vscode-elements/elements/dist/vscode-textfield/vscode-textfield.js';
import {
  APPLICATION_PLATFORMS, DEVICE_TYPES, type ApplicationState, type ApplicationValues, type CredentialsMessage,
} from './application.protocol';
import { clear, el } from '../../forms/page/dom';
import { section, selectField, textField } from '../../forms/page/fields';
import { FormView } from '../../forms/page/form';
import { post } from '../../forms/page/host';

const PLATFORM_LABELS: Record<(typeof APPLICATION_PLATFORMS)[number], string> = {
  IOS: 'iOS', ANDROID: 'Android', SYNC: 'Sync client', LINUX: 'Linux', WINDOWS: 'Windows', OTHER: 'Other',
};

type Form = FormView<ApplicationState, ApplicationValues>;

/** The credentials on screen; emptied on Done, on Close and when the page goes away. */
function credentialsView(): { show(form: Form, m: CredentialsMessage): void } {
  const box = el('section', { attrs: { 'aria-label': 'Client credentials' } });
  const forget = (): void => {
    clear(box);
    box.remove();
  };
  window.addEventListener('pagehide', forget);
  document.addEventListener('click', (e) => {
    // Close posts "close"; the DOM is emptied first so the secret is gone even before the panel is.
    if ((e.target as HTMLElement | null)?.textContent === 'Close') forget();
  });
  return { show: (form, m) => showCredentials(box, forget, form, m) };
}

function copyButton(what: 'clientId' | 'clientSecret', label: string): HTMLElement {
  return el('vscode-button', { secondary: true, textContent: label, on: { click: () => post({ type: 'copy', what }) } });
}

function showCredentials(box: HTMLElement, forget: () => void, form: Form, m: CredentialsMessage): void {
  clear(box);
  const status = el('p', { attrs: { role: 'status', 'aria-live': 'polite' }, id: 'credentials-status' });
  const use = el('vscode-button', {
    textContent: 'Use these credentials for this portal',
    hidden: m.stored,
    on: { click: () => form.send({ type: 'useCredentials', confirm: 'yes' }) },
  });
  use.id = 'use-credentials';
  box.append(
    el('h2', { textContent: m.reason === 'rotated' ? 'New client secret' : 'Client credentials' }),
    el('p', {
      classes: ['banner', 'warn'],
      textContent: m.reason === 'rotated'
        ? 'The old secret has stopped working. The new one is shown only now: copy it before you close this panel.'
        : 'The client secret is shown only now: copy it, or use it for this portal, before you close this panel.',
    }),
    el('dl', { classes: ['kv'] },
      el('dt', { textContent: 'Client id' }),
      el('dd', {}, el('code', { id: 'client-id', classes: ['secret'], textContent: m.clientId }), ' ', copyButton('clientId', 'Copy client id')),
      el('dt', { textContent: 'Client secret' }),
      el('dd', {}, el('code', { id: 'client-secret', classes: ['secret'], textContent: m.clientSecret }), ' ', copyButton('clientSecret', 'Copy secret'))),
    el('div', { classes: ['actions'] },
      use,
      el('vscode-button', {
        secondary: true,
        textContent: 'Done (hide the secret)',
        on: {
          click: () => {
            forget();
            post({ type: 'hideCredentials' });
          },
        },
      })),
    status,
  );
  if (m.stored) status.textContent = 'This portal now signs in with these credentials.';
  form.show(box);
}

/** Renders this form in the page the host opened; nothing of it runs for another form. */
export function startApplicationPage(): void {
  let read: () => ApplicationValues = () => {
    throw new Error('not rendered');
  };
  const credentials = credentialsView();
  new FormView<ApplicationState, ApplicationValues>({
    saveLabel: (s) => (s.mode === 'create' ? 'Create' : undefined),
    draftKey: (s) => (s.mode === 'create' ? 'application:new' : `application:${s.application.clientId}`),
    valuesOf: (s) => s.values,
    read: () => read(),
    render(form, state, values) {
      if (state.mode === 'rotate') {
        const a = state.application;
        read = () => values;
        const row = (label: string, value: string) => [el('dt', { textContent: label }), el('dd', { textContent: value || '—' })];
        return [
          el('h1', { textContent: a.name || a.clientId }),
          el('p', { classes: ['subtitle'], textContent: `Application on ${state.portalLabel}${state.inUse ? ' (this portal signs in with it)' : ''}` }),
          el('dl', { classes: ['kv'] },
            ...row('Client id', a.clientId), ...row('Description', a.description), ...row('Platform', a.platform),
            ...row('Device type', a.deviceType), ...row('Device model', a.deviceModel), ...row('Operating system', a.deviceOs),
            ...row('App version', a.appVersion), ...row('Bundle id', a.bundleId)),
          section('Rotate the client secret',
            el('p', { classes: ['hint'], textContent: state.inUse
              ? 'The portal issues a new secret and the old one stops working at once. This portal signs in with this application, so the new secret is stored for it automatically.'
              : 'The portal issues a new secret and the old one stops working at once: every client using it must be given the new one.' })),
          form.actions(el('vscode-button', { id: 'rotate', textContent: 'Rotate secret', on: { click: () => form.send({ type: 'rotate', clientId: a.clientId }) } })),
        ];
      }
      const name = textField(form, { id: 'name', label: 'Name', value: values.name, required: true, maxLength: 200 });
      const description = textField(form, { id: 'description', label: 'Description', value: values.description, maxLength: 2000 });
      const platform = selectField(form, { id: 'platform', label: 'Platform', value: values.platform, choices: APPLICATION_PLATFORMS.map((p) => ({ value: p, label: PLATFORM_LABELS[p] })) });
      const deviceType = selectField(form, { id: 'deviceType', label: 'Device type', value: values.deviceType, choices: DEVICE_TYPES.map((d) => ({ value: d, label: d })) });
      const deviceModel = textField(form, { id: 'deviceModel', label: 'Device model', value: values.deviceModel, maxLength: 200 });
      const deviceOs = textField(form, { id: 'deviceOs', label: 'Operating system', value: values.deviceOs, maxLength: 200 });
      const appVersion = textField(form, { id: 'appVersion', label: 'App version', value: values.appVersion, maxLength: 200 });
      const bundleId = textField(form, { id: 'bundleId', label: 'Bundle id', value: values.bundleId, maxLength: 200, placeholder: 'com.example.app' });
      const text = (f: { control: VscodeTextfield }) => f.control.value;
      read = () => ({
        name: text(name), description: text(description), platform: platform.read(), deviceType: deviceType.read(),
        deviceModel: text(deviceModel), deviceOs: text(deviceOs), appVersion: text(appVersion), bundleId: text(bundleId),
      });
      return [
        el('h1', { textContent: 'Create application' }),
        el('p', { classes: ['subtitle'], textContent: `An application gives a program its own client id and secret on ${state.portalLabel}${state.username ? `, owned by ${state.username}` : ''}.` }),
        name.node, description.node,
        el('div', { classes: ['row'] }, platform.node, deviceType.node),
        el('div', { classes: ['row'] }, deviceModel.node, deviceOs.node),
        el('div', { classes: ['row'] }, appVersion.node, bundleId.node),
        form.actions(),
      ];
    },
    onMessage(form, m) {
      if (m.type === 'credentials') credentials.show(form, m as unknown as CredentialsMessage);
      else if (m.type === 'copied') {
        const status = document.getElementById('credentials-status');
        if (status) status.textContent = m.what === 'clientSecret' ? 'Secret copied to the clipboard.' : 'Client id copied to the clipboard.';
      } else if (m.type === 'stored') {
        const status = document.getElementById('credentials-status');
        if (status) status.textContent = String(m.message);
        const use = document.getElementById('use-credentials');
        if (use) use.hidden = true;
      }
    },
  });
}
