import { readJsonFile } from '../../store/read-json-file.js';
import type { ScanWarning } from '../scan/scan-warning.js';

/**
 * What the registry merge takes from `user-mapping.json`, read-only: which session each chat user
 * is on. The bridge owns the file; this view accepts both the bare shape
 * `{version, ownerOpenId, entries: {<open_id>: {type:'session', sessionUuid, cwd, …}}}` and the
 * same object wrapped by `VersionedDoc` (`{version, schema, data: {…}}`).
 *
 * A mapping entry marks its session as Feishu-created when it carries `origin: 'feishu'` (the
 * bridge writes it when `/new` creates the session); `defaultProvider` fills `lastKnownProvider`.
 */
export interface MappedSession {
  sessionId: string;
  openId: string;
  origin: 'feishu' | null;
  cwd: string | null;
  provider: string | null;
  createdAt: string | null;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v : null);

/** The mapped sessions; a missing file is none, an unusable one is none plus a warning. */
export async function readMappedSessions(
  file: string,
): Promise<{ sessions: MappedSession[]; warnings: ScanWarning[] }> {
  let value: unknown;
  try {
    const r = await readJsonFile(file);
    if (!r.exists) return { sessions: [], warnings: [] };
    value = r.value;
  } catch {
    return { sessions: [], warnings: [{ code: 'unreadable_mapping', file }] };
  }
  return { sessions: mappedSessions(value), warnings: [] };
}

/** Pure part of `readMappedSessions`. */
export function mappedSessions(value: unknown): MappedSession[] {
  const root = isObj(value) && isObj(value.data) ? value.data : value;
  if (!isObj(root) || !isObj(root.entries)) return [];
  const out: MappedSession[] = [];
  for (const [openId, e] of Object.entries(root.entries)) {
    if (!isObj(e) || e.type !== 'session') continue;
    const sessionId = str(e.sessionUuid);
    if (!sessionId) continue;
    out.push({
      sessionId,
      openId,
      origin: e.origin === 'feishu' ? 'feishu' : null,
      cwd: str(e.cwd),
      provider: str(e.defaultProvider),
      createdAt: str(e.createdAt),
    });
  }
  return out;
}
