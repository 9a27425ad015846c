/**
 * "Load from the Portal": the one way a `portal:` placeholder (a URI this extension did not make) is read from the
 * portal. The code lens above its first line carries a branded argument, so a click loads at once; the command
 * run any other way (the palette, a `command:` link, another extension) asks first, naming what would be read.
 */
import * as vscode from 'vscode';
import type { Ref } from '../../../shared/refs';
import { registerCommand, type CommandEnv } from '../../../ui/commands';
import { answered } from '../../../ui/ui';
import { Vouched } from '../../../ui/vouched';
import type { PortalFileSystem } from './fileSystem';
import { linkAsks } from './problems';
import { PORTAL_SCHEME } from './uri';

export const LOAD_COMMAND = 'portal.document.load';

/** The code lens's argument: this extension rendered it above this placeholder. */
class LoadLink extends Vouched {
  readonly ref: Ref | undefined = undefined;
  constructor(readonly uri: vscode.Uri) {
    super();
  }
}

class PlaceholderLenses implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly fileSystem: PortalFileSystem) {
    this.subscription = fileSystem.onDidTrust(() => this.changed.fire());
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    if (this.fileSystem.isTrusted(document.uri) || !this.fileSystem.targetOfUri(document.uri)) return [];
    return [
      new vscode.CodeLens(new vscode.Range(0, 0, 0, 0), {
        title: vscode.l10n.t('Load from the Portal'),
        command: LOAD_COMMAND,
        arguments: [new LoadLink(document.uri)],
      }),
    ];
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}

export function registerDocumentLoad(env: CommandEnv, fileSystem: PortalFileSystem): vscode.Disposable[] {
  const lenses = new PlaceholderLenses(fileSystem);
  return [
    lenses,
    vscode.languages.registerCodeLensProvider({ scheme: PORTAL_SCHEME }, lenses),
    registerCommand(env, LOAD_COMMAND, async (run) => {
      const link = run.node instanceof LoadLink ? run.node : undefined;
      const uri = link?.uri ?? vscode.window.activeTextEditor?.document.uri;
      const target = uri?.scheme === PORTAL_SCHEME ? fileSystem.targetOfUri(uri) : undefined;
      if (!uri || !target || fileSystem.isTrusted(uri)) {
        run.ui.notify('info', vscode.l10n.t('The active editor is no portal: document waiting to be loaded.'));
        return false;
      }
      if (!link) {
        const portal = fileSystem.portalLabel(target.portalId) ?? target.portalId;
        answered(
          await run.ui.choose({
            id: 'document.load.confirm',
            severity: 'warning',
            modal: true,
            message: vscode.l10n.t('Load this document from {0}?', portal),
            detail: vscode.l10n.t(
              'The portal: link was not opened from the Portal views. Loading it reads {0} with your sign-in.',
              linkAsks(target),
            ),
            actions: [{ id: 'load', label: vscode.l10n.t('Load from the Portal') }],
          }),
        );
      }
      fileSystem.loadOnRequest(uri);
      return true;
    }),
  ];
}
