/** A time to come in words: an estimate, never more precise than it can be. */
import * as l10n from '@vscode/l10n';

/** "about 40 s", "about 3 min", "about 1.5 h". */
export function aboutDuration(ms: number): string {
  const s = Math.max(1, Math.round(ms / 1000));
  if (s < 90) return l10n.t('about {0} s', s);
  const min = Math.round(s / 60);
  if (min < 90) return l10n.t('about {0} min', min);
  return l10n.t('about {0} h', Math.round(min / 6) / 10);
}
