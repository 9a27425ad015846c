// The webview's side of the conversation with the extension host.

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

/** acquireVsCodeApi may be called once per page. */
const api = acquireVsCodeApi();

export function post(message: { type: string; [key: string]: unknown }): void {
  api.postMessage(message);
}

/** Messages from the host. Only objects with a string `type` are passed on. */
export function onHostMessage(handler: (message: { type: string } & Record<string, unknown>) => void): void {
  window.addEventListener('message', (event: MessageEvent<unknown>) => {
    const data = event.data;
    if (typeof data === 'object' && data !== null && typeof (data as { type?: unknown }).type === 'string') {
      handler(data as { type: string } & Record<string, unknown>);
    }
  });
}

/**
 * What survives a reload of the webview (VS Code unloads hidden webviews): the user's unsaved input, keyed
 * by the record it belongs to. Never a secret: callers leave passwords and client secrets out.
 */
interface SavedDraft {
  key: string;
  values: unknown;
}

export function loadDraft(key: string): unknown {
  const s = api.getState() as SavedDraft | undefined;
  return s && s.key === key ? s.values : undefined;
}

export function saveDraft(key: string, values: unknown): void {
  api.setState({ key, values } satisfies SavedDraft);
}

export function clearDraft(): void {
  api.setState(undefined);
}
