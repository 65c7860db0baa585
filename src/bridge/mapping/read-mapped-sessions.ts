import type { MappedSession, MappedSessions } from '../../sessions/registry/mapped-session.js';
import { readJsonFile } from '../../store/read-json-file.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v : null);

/**
 * The bridge's user mapping as the session registry's merge needs it (read-only): the sessions
 * chat users are on. A missing file is no session; an unreadable one is no session and an
 * `unreadable_mapping` warning. Accepts the mapping as the bridge writes it (inside its
 * versioned envelope `{version, schema, data: {ownerOpenId, entries}}`) and the bare
 * `{ownerOpenId, entries}` object; entries whose type is not `session` are skipped.
 *
 * @example
 *   await syncRegistry({ paths, maxFileSize, readMapping: () => readMappedSessions(paths.userMappingFile) });
 */
export async function readMappedSessions(file: string): Promise<MappedSessions> {
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

/** The pure part of `readMappedSessions`: the mapped sessions of a parsed mapping file. */
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
