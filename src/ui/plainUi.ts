/**
 * Every text a Ui is given, as plain text. Notifications, progress titles and modal dialogs turn
 * `[label](command:…)` into a link that runs a command; quick picks, input boxes and the status bar turn `$(name)`
 * into an icon. Our own strings carry neither, and any of them may quote a name or an error the portal wrote, so
 * all of them pass through `plain()` here, once, whatever Ui is in use: VS Code sees exactly what a test's Ui sees.
 * Editable values (an input box's starting text) and what is copied to the clipboard stay as they are.
 */
import { plain } from '../shared/plainText';
import type { PickItem, Progress, SearchSource, Ui } from './ui';

const detail = (text: string | undefined): string | undefined =>
  text === undefined ? undefined : plain(text, { multiline: true, maxLength: 4000 });
const optional = (text: string | undefined): string | undefined => (text === undefined ? undefined : plain(text));

function item<T>(i: PickItem<T>): PickItem<T> {
  return {
    ...i,
    label: plain(i.label),
    ...(i.description !== undefined ? { description: plain(i.description) } : {}),
    ...(i.detail !== undefined ? { detail: plain(i.detail) } : {}),
    ...(i.buttons ? { buttons: i.buttons.map((b) => ({ ...b, tooltip: plain(b.tooltip) })) } : {}),
  };
}

function items<T>(
  list: readonly PickItem<T>[] | Promise<readonly PickItem<T>[]>,
): readonly PickItem<T>[] | Promise<readonly PickItem<T>[]> {
  return Array.isArray(list)
    ? (list as readonly PickItem<T>[]).map(item)
    : Promise.resolve(list).then((l) => l.map(item));
}

function source<T>(inner: SearchSource<T>): SearchSource<T> {
  return async function* plainBatches(text, signal) {
    for await (const batch of inner(text, signal)) yield batch.map(item);
  };
}

function progress(p: Progress): Progress {
  return { report: (step) => p.report(step.message === undefined ? step : { ...step, message: plain(step.message) }) };
}

export function plainUi(ui: Ui): Ui {
  return {
    confirm: (o) => ui.confirm({ ...o, message: plain(o.message), detail: detail(o.detail), action: plain(o.action) }),
    choose: (o) =>
      ui.choose({
        ...o,
        message: plain(o.message),
        detail: detail(o.detail),
        actions: o.actions.map((a) => ({ id: a.id, label: plain(a.label) })),
      }),
    input: (o) =>
      ui.input({
        ...o,
        title: plain(o.title),
        prompt: plain(o.prompt),
        placeHolder: optional(o.placeHolder),
        ...(o.validate ? { validate: (v: string) => optional(o.validate?.(v)) } : {}),
      }),
    pick: (list, o) => ui.pick(items(list), { ...o, title: optional(o.title), placeHolder: plain(o.placeHolder) }),
    pickMany: (list, o) =>
      ui.pickMany(items(list), { ...o, title: optional(o.title), placeHolder: plain(o.placeHolder) }),
    pickOrCreate: (list, o) =>
      ui.pickOrCreate(items(list), {
        ...o,
        title: optional(o.title),
        placeHolder: plain(o.placeHolder),
        createLabel: (typed) => plain(o.createLabel(typed)),
        ...(o.validate ? { validate: (v: string) => optional(o.validate?.(v)) } : {}),
      }),
    search: (src, o) => ui.search(source(src), { ...o, title: optional(o.title), placeHolder: plain(o.placeHolder) }),
    progress: (o, task) => ui.progress({ ...o, title: plain(o.title) }, (p, signal) => task(progress(p), signal)),
    pickFolder: (o) => ui.pickFolder({ ...o, title: plain(o.title), openLabel: plain(o.openLabel) }),
    pickFiles: (o) => ui.pickFiles({ ...o, title: plain(o.title), openLabel: plain(o.openLabel) }),
    saveFile: (o) => ui.saveFile({ ...o, title: plain(o.title) }),
    notify: (severity, message) => ui.notify(severity, plain(message)),
    status: (message, ms) => ui.status(plain(message), ms),
    copy: (text) => ui.copy(text),
  };
}
