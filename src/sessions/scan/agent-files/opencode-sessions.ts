import fs from 'node:fs';
import path from 'node:path';
import type { Database, SqlValue } from 'sql.js';
import type { AgentFileStat, AgentMessage, AgentReader } from './agent-reader.js';
import { isAgentSessionId } from './agent-name.js';
import { AgentSummary } from './agent-summary.js';
import type { ScannedSession } from '../scanned-session.js';
import type { ScanWarning } from '../scan-warning.js';

/** Characters of a message a scan takes from the database: all a preview looks at (see `preview`). */
const PREVIEW_LOOK = 1024;

/** OpenCode's database file under its data directory. */
export function opencodeDbFile(dataDir: string): string {
  return path.join(dataDir, 'opencode.db');
}

/**
 * Opens the database file read-only in a sense SQLite cannot break: its bytes are read into
 * memory and opened there by sql.js (WebAssembly, no native build), so nothing is ever written to
 * the file, and a lock held by a running OpenCode does not matter. A database in WAL mode is
 * opened as a rollback-journal one (header bytes 18–19 patched in the copy): the pages in the
 * main file are read; writes still only in `opencode.db-wal` are not seen until OpenCode
 * checkpoints them.
 */
async function openCopy(file: string): Promise<Database> {
  const bytes = fs.readFileSync(file);
  if (bytes.length >= 20 && bytes[18] === 2 && bytes[19] === 2) bytes[18] = bytes[19] = 1;
  const { default: initSqlJs } = await import('sql.js');
  const SQL = await (sqlJs ??= initSqlJs());
  return new SQL.Database(bytes);
}

let sqlJs: ReturnType<typeof import('sql.js')> | undefined;

/** The rows of `sql` as objects. */
function rows(db: Database, sql: string, params: SqlValue[] = []): Record<string, SqlValue>[] {
  const stmt = db.prepare(sql);
  try {
    stmt.bind(params);
    const out: Record<string, SqlValue>[] = [];
    while (stmt.step()) out.push(stmt.getAsObject());
    return out;
  } finally {
    stmt.free();
  }
}

/** The column names of `table` (none when it does not exist). */
function columns(db: Database, table: string): Set<string> {
  return new Set(rows(db, `PRAGMA table_info(${table})`).map((r) => String(r.name)));
}

/** Every message of the sessions asked (all when `sessionId` is null), each with its text parts joined, in order. */
function messageRows(db: Database, sessionId: string | null, keepChars: number): Record<string, SqlValue>[] {
  const text = `(SELECT group_concat(substr(json_extract(p.data, '$.text'), 1, ${keepChars}), char(10)) FROM part p
      WHERE p.message_id = m.id AND json_extract(p.data, '$.type') = 'text'
        AND coalesce(json_extract(p.data, '$.synthetic'), 0) = 0)`;
  return rows(
    db,
    `SELECT m.session_id AS sid, m.time_created AS t, json_extract(m.data, '$.role') AS role, ${text} AS text
       FROM message m ${sessionId === null ? '' : 'WHERE m.session_id = ?'}
       ORDER BY m.session_id, m.time_created, m.id`,
    sessionId === null ? [] : [sessionId],
  );
}

/** `value` as a string, or null. */
const str = (value: SqlValue | undefined): string | null => (typeof value === 'string' ? value : null);

/**
 * OpenCode's sessions: one SQLite database, `<opencodeDataDir>/opencode.db`, read with sql.js from
 * a copy in memory (never written, see `openCopy`). Table `session` gives id, directory (the cwd),
 * title and times (ms); sub-sessions (`parent_id` set, a task's own session) are left out. Counts
 * and previews come from `message` (`session_id`, `data` JSON with the role) and its text parts in
 * `part`. A database that cannot be opened or has no `session` table is a `unreadable_db`
 * warning, never an error, and its sessions stay as the registry had them.
 */
export const opencodeReader: AgentReader = {
  agent: 'opencode',

  list(dirs) {
    const file = opencodeDbFile(dirs.opencodeDataDir);
    return fs.existsSync(file) ? [file] : [];
  },

  async read(file, stat, _opts) {
    const warnings: ScanWarning[] = [];
    let db: Database;
    try {
      db = await openCopy(file);
    } catch (err) {
      return { sessions: [], warnings: [unreadable(file, err)], unreadable: true };
    }
    try {
      const cols = columns(db, 'session');
      if (!['id', 'directory', 'time_created'].every((c) => cols.has(c)))
        return {
          sessions: [],
          warnings: [{ code: 'unreadable_db', file, detail: 'no session table' }],
          unreadable: true,
        };
      const pick = (c: string) => (cols.has(c) ? c : 'NULL');
      const summaries = new Map<string, AgentSummary>();
      for (const r of rows(
        db,
        `SELECT id, directory, ${pick('title')} AS title, time_created, ${pick('time_updated')} AS time_updated
           FROM session ${cols.has('parent_id') ? 'WHERE parent_id IS NULL' : ''} ORDER BY id`,
      )) {
        const id = str(r.id);
        if (!id || !isAgentSessionId('opencode', id)) continue;
        const s = new AgentSummary(id, file, stat as AgentFileStat);
        s.cwd(str(r.directory));
        s.title(str(r.title));
        s.time(r.time_created);
        s.time(r.time_updated);
        summaries.set(id, s);
      }
      try {
        for (const m of messageRows(db, null, PREVIEW_LOOK)) {
          const s = summaries.get(String(m.sid));
          if (!s) continue;
          s.time(m.t);
          if (m.role === 'user') s.user(str(m.text) ?? '');
          else if (m.role === 'assistant') s.assistant(str(m.text) ?? '');
        }
      } catch (err) {
        warnings.push(unreadable(file, err)); // sessions without counts or previews
      }
      const sessions: ScannedSession[] = [...summaries.values()].map((s) => s.finish(warnings));
      return { sessions, warnings };
    } catch (err) {
      return { sessions: [], warnings: [unreadable(file, err)], unreadable: true };
    } finally {
      db.close();
    }
  },

  async transcript(file, id) {
    const db = await openCopy(file);
    try {
      return messageRows(db, id, 1 << 30).flatMap((m): AgentMessage[] =>
        m.role === 'user' || m.role === 'assistant'
          ? [
              {
                role: m.role,
                timestamp: typeof m.t === 'number' ? new Date(m.t).toISOString() : null,
                text: str(m.text) ?? '',
              },
            ]
          : [],
      );
    } finally {
      db.close();
    }
  },
};

function unreadable(file: string, err: unknown): ScanWarning {
  const detail = err instanceof Error ? err.message : String(err);
  return { code: 'unreadable_db', file, detail: detail.slice(0, 200) };
}
