import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { plain } from '../shared/plainText';

/** The folder the webview bundles are built into; the only folder a form's webview may load from. */
function bundleRoot(extensionUri: vscode.Uri): vscode.Uri {
  return vscode.Uri.joinPath(extensionUri, 'dist', 'webview');
}

/** Options every form panel is created with. */
export function panelOptions(extensionUri: vscode.Uri): vscode.WebviewPanelOptions & vscode.WebviewOptions {
  return {
    enableScripts: true,
    enableCommandUris: false,
    localResourceRoots: [bundleRoot(extensionUri)],
    // The webview keeps the user's input in its own state (setState), so it can be unloaded while hidden.
    retainContextWhenHidden: false,
  };
}

/**
 * A page's panel: the one VS Code brought back after a reload (given our options and title again, which it does not
 * keep) or a new one, showing the page `kind`.
 */
export function pagePanel(
  viewType: string,
  kind: string,
  title: string,
  extensionUri: vscode.Uri,
  restored?: vscode.WebviewPanel,
): vscode.WebviewPanel {
  const panel =
    restored ??
    vscode.window.createWebviewPanel(viewType, plain(title), vscode.ViewColumn.Active, panelOptions(extensionUri));
  if (restored) {
    restored.title = plain(title);
    restored.webview.options = panelOptions(extensionUri);
  }
  panel.webview.html = formHtml(panel.webview, extensionUri, kind, title);
  return panel;
}

/** The one webview bundle; it starts the form named in the body's data-form. */
const BUNDLE = 'forms.js';

/**
 * The page of a form: a Content-Security-Policy that allows only our bundle (by nonce) and our own
 * resources, and a body that says "Loading…" until the host's state arrives. Nothing from the server is
 * ever put into this string: every portal value travels as a message and is rendered as text. `kind` names
 * the form ("member", "group"…) and is always one of our own constants.
 */
export function formHtml(webview: vscode.Webview, extensionUri: vscode.Uri, kind: string, title: string): string {
  const nonce = randomBytes(18).toString('base64');
  const src = webview.asWebviewUri(vscode.Uri.joinPath(bundleRoot(extensionUri), BUNDLE));
  const csp = [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${webview.cspSource} 'nonce-${nonce}'`,
    `font-src ${webview.cspSource}`,
    `img-src ${webview.cspSource}`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="${escapeText(vscode.env.language)}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>${escapeText(title)}</title>
</head>
<body data-form="${escapeText(kind)}">
<main id="app" aria-busy="true"><p class="loading">${escapeText(vscode.l10n.t('Loading…'))}</p></main>
<script nonce="${nonce}" src="${src.toString()}"></script>
</body>
</html>`;
}

/** For the one value we write into the page ourselves (the title, chosen by our code). */
function escapeText(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
