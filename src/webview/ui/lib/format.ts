// Number and date formatting for the forms (the webview has no access to the tree's helpers in src/tree).

export function bytes(n: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB', 'PB'];
  let v = n;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return i === 0 ? `${n} bytes` : `${v.toFixed(v < 10 ? 1 : 0)} ${units[i]}`;
}

export function count(n: number): string {
  return n.toLocaleString('en-US');
}

export function date(ms: number): string {
  return new Date(ms).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
}

/** "in 3 days", "2 days ago", "today". */
export function relativeDays(ms: number, now = Date.now()): string {
  const days = Math.round((ms - now) / 86_400_000);
  if (days === 0) return 'today';
  if (days > 0) return `in ${days} ${days === 1 ? 'day' : 'days'}`;
  return `${-days} ${days === -1 ? 'day' : 'days'} ago`;
}
