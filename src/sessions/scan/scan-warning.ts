import type { Language } from '../../core/i18n.js';
import { formatBytes } from '../../core/format-bytes.js';
import { sessionsMessages } from '../sessions-messages.js';

/**
 * Something the scanner (or the registry reader) noticed but worked around. Returned, never thrown
 * (one odd file must not stop a scan of two thousand); the CLI prints them with
 * `formatScanWarning` in the user's language.
 */
export interface ScanWarning {
  code:
    | 'too_large'
    | 'unreadable'
    | 'not_a_file'
    | 'broken_link'
    | 'not_a_session_id'
    | 'not_jsonl'
    | 'invalid_lines'
    | 'long_lines'
    | 'duplicate_session'
    | 'unreadable_dir'
    | 'no_session_id'
    | 'unreadable_db'
    | 'bad_event'
    | 'unreadable_mapping'
    | 'registry_recovered'
    | 'registry_dropped';
  /** The file (or directory) concerned. */
  file: string;
  /** A count, a size in bytes, an errno code, or the other file of a duplicate. */
  detail?: string | number;
}

/** One line describing `w` in `lang`. */
export function formatScanWarning(w: ScanWarning, lang: Language): string {
  const t = sessionsMessages(lang);
  const detail =
    w.detail === undefined ? '' : w.code === 'too_large' ? formatBytes(Number(w.detail)) : String(w.detail);
  return t(`warn_${w.code}`, { file: w.file, detail });
}

/** `104857600` → `100.0 MB` (kept here for the scanner's callers; the one definition is in core). */
export { formatBytes };
