import type { Language } from '../../core/i18n.js';
import { formatScanWarning, type ScanWarning } from '../../sessions/scan/scan-warning.js';
import type { Output } from '../context/output.js';
import { commandMessages } from '../commands/command-messages.js';

/** Prints scanner/registry warnings on stderr, one line each, at most `max` of them. */
export function printWarnings(out: Output, warnings: readonly ScanWarning[], lang: Language, max = 20): void {
  for (const w of warnings.slice(0, max)) out.progress(`⚠️  ${formatScanWarning(w, lang)}`);
  if (warnings.length > max) out.progress(commandMessages(lang)('moreWarnings', { n: warnings.length - max }));
}
