/**
 * An application's read-only document: read (from the list when the portal offers no single read) and rendered in
 * Markdown. The records feature serves it as a `portal:` document; this feature says what it shows.
 */
import * as l10n from '@vscode/l10n';
import type { Application } from '../../api/index';
import { fullDate, relativeTime } from '../../shared/format';
import { line, noticeLines, text } from '../../shared/markdown';
import type { DocumentContext } from '../contracts';
import { readApplication } from './applicationRead';
import { deviceTypeWord, platformWord } from '../../shared/applicationWords';

/** The document of the application `clientId`; a PortalError when the portal cannot give it. */
export async function applicationDocument(ctx: DocumentContext, clientId: string): Promise<string> {
  const { application, fromList } = await readApplication(ctx.client, clientId);
  const notices = fromList
    ? [l10n.t('The portal did not answer the application read: this shows what its application list gives.')]
    : [];
  return renderApplication(application, {
    portalLabel: ctx.portalLabel,
    current: ctx.signedInClientId === application.clientId,
    notices,
  });
}

export function renderApplication(
  app: Application,
  ctx: { portalLabel: string; current: boolean; now?: number; notices?: readonly string[] },
): string {
  const device =
    [app.deviceType && deviceTypeWord(app.deviceType), app.deviceModel, app.deviceOs]
      .filter(Boolean)
      .map((d) => text(d))
      .join(', ') || text(null);
  return [
    `# ${text(app.name || app.clientId)}`,
    '',
    ...noticeLines(ctx.notices),
    l10n.t(
      'Application on {0}. Read-only. The client secret is never shown here: the portal returns it only when it is created or rotated.',
      text(ctx.portalLabel),
    ),
    ...(ctx.current
      ? [
          '',
          `**${l10n.t('This VS Code window signs in with this application.')}** ${l10n.t('Deleting it or rotating its secret from elsewhere signs this window out.')}`,
        ]
      : []),
    '',
    line(l10n.t('Client id'), text(app.clientId)),
    line(l10n.t('Description'), text(app.description)),
    line(l10n.t('Platform'), text(app.platform && platformWord(app.platform))),
    line(l10n.t('Device'), device),
    line(l10n.t('App version'), text(app.appVersion)),
    line(l10n.t('Bundle id'), text(app.bundleId)),
    line(
      l10n.t('Last activity'),
      app.lastActivity !== null
        ? `${relativeTime(app.lastActivity, ctx.now)} (${fullDate(app.lastActivity)})`
        : l10n.t('never'),
    ),
    line(l10n.t('Created from IP address'), text(app.ip)),
    line(l10n.t('Owner'), app.owner ? `${text(app.owner.name)} (${text(app.owner.username)})` : '—'),
    '',
  ].join('\n');
}
