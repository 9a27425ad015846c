// Builds DOM from properties and text nodes only. Server strings are always set as textContent or as an
// element property, never parsed as HTML, so a member named "<img src=x onerror=…>" shows as those characters.
// Text shown (not values in fields, which go back to the portal as they came) loses its bidirectional
// controls, so a group named "\u202Egnp.exe" cannot read as "exe.png".
import { withoutBidi } from '../../shared/plainText';

type Props<E> = { [K in keyof E]?: E[K] extends (...args: never[]) => unknown ? never : E[K] } & {
  /** Attributes, for the few things that are not properties (aria-*, role, for). */
  attrs?: Record<string, string>;
  /** A class name list. */
  classes?: string[];
  on?: Partial<Record<keyof HTMLElementEventMap | string, (event: Event) => void>>;
};

/** Marks a control whose emptiness is an error only once the user left it or tried to save. */
export const REQUIRED_ATTR = 'data-required';

export type Child = Node | string | null | undefined | false;

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props<HTMLElementTagNameMap[K]> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  const { attrs, classes, on, ...rest } = props as Props<HTMLElement>;
  for (const [name, value] of Object.entries(attrs ?? {})) node.setAttribute(name, value);
  if (classes) node.classList.add(...classes);
  for (const [event, handler] of Object.entries(on ?? {})) if (handler) node.addEventListener(event, handler);
  const text = (rest as { textContent?: unknown }).textContent;
  Object.assign(node, typeof text === 'string' ? { ...rest, textContent: withoutBidi(text) } : rest);
  append(node, ...children);
  return node;
}

export function append(parent: Node, ...children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'string' ? document.createTextNode(withoutBidi(child)) : child);
  }
}

export function clear(node: Node): void {
  while (node.firstChild) node.removeChild(node.firstChild);
}

/** Runs `draw` at the next frame, once however often it is asked for before then. */
export function onNextFrame(draw: () => void): () => void {
  let queued = false;
  return () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      draw();
    });
  };
}

/** Ids built from server data (group ids) stay valid CSS selectors for vscode-label's lookup. */
export function safeId(...parts: Array<string | number>): string {
  return parts.map((p) => String(p).replace(/[^A-Za-z0-9_-]/g, '_')).join('-');
}

/**
 * Focuses a control once it has drawn itself: the elements render their inner input a moment after they are added,
 * and focus given before that finds nothing to land on.
 */
/**
 * Adds a page's stylesheet as that page starts. Every page is in one bundle, so a sheet adopted as its module loads
 * would style the other pages too (the matrix's absolutely placed `.row` laid a form's rows over each other).
 * Constructed sheets need no inline <style>, so the page's CSP can stay nonce-only.
 */
export function adoptStyles(css: string): void {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(css);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}

export function focusWhenReady(control: HTMLElement | null | undefined): void {
  if (!control) return;
  const drawn = (control as HTMLElement & { updateComplete?: Promise<unknown> }).updateComplete;
  void Promise.resolve(drawn).then(() => control.focus());
}
