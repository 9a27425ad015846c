/**
 * The pieces every read-only `portal:` document is made of, in Markdown: server text escaped so it stays text, one
 * labelled value per line, and the notes above the data. Shared so each feature can render its own documents. Pure.
 */

/** Escapes Markdown and HTML punctuation in server text; newlines become spaces (one value, one line). */
export function text(value: string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '—';
  // Only what can open markup mid-line; dots and dashes stay readable ("README.md", not "README\.md").
  return value.replace(/[\r\n\t]+/g, ' ').replace(/[\\`*[\]<>|~&]|(?<!\w)_|_(?!\w)/g, (c) => `\\${c}`);
}

export function line(label: string, value: string): string {
  return `- **${label}:** ${value}`;
}

/** Notes above a document's data: what the portal did not answer, and so what is missing below. */
export function noticeLines(notices: readonly string[] | undefined): string[] {
  return notices && notices.length > 0 ? [...notices.map((n) => `> ${text(n)}`), ''] : [];
}
