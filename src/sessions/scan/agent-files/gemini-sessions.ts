import fs from 'node:fs';
import path from 'node:path';
import type { AgentMessage, AgentReader } from './agent-reader.js';
import { isAgentSessionId } from './agent-name.js';
import { AgentSummary, oneSessionRead, partsText } from './agent-summary.js';
import { asObject, asString, forEachJsonLine } from './json-lines.js';
import { filesIn, readDirQuietly, subdirs } from './list-files.js';
import type { ScanWarning } from '../scan-warning.js';

/** Characters of a message a scan keeps: all a preview looks at (see `preview`). */
const PREVIEW_LOOK = 1024;

/** A message line's role: `user` is a prompt, `gemini` an answer; other types (info, error…) are neither. */
function roleOf(type: unknown): AgentMessage['role'] | null {
  return type === 'user' ? 'user' : type === 'gemini' ? 'assistant' : null;
}

/** The text of a message's `content`: a string, or parts (`[{text}, …]`). */
function contentText(content: unknown): string {
  return partsText(content);
}

/**
 * Folds a Gemini chat file's lines into its messages, in order: a message line adds one (a line
 * repeating an id already seen replaces that message: Gemini rewrites a message as it grows), and
 * `$set.messages` replaces the whole list. Calls `onLine` with every line first.
 */
function foldGemini(
  file: string,
  opts: { maxLineBytes?: number; size?: number; keepChars?: number },
  onLine: (v: Record<string, unknown>) => void,
): { messages: AgentMessage[]; pass: ReturnType<typeof forEachJsonLine> } {
  let messages: AgentMessage[] = [];
  let byId = new Map<string, number>();
  const add = (m: Record<string, unknown>) => {
    const role = roleOf(m.type);
    if (!role) return;
    const msg: AgentMessage = {
      role,
      timestamp: asString(m.timestamp),
      text: contentText(m.content).slice(0, opts.keepChars),
    };
    const id = asString(m.id);
    const at = id === null ? undefined : byId.get(id);
    if (at !== undefined) messages[at] = msg;
    else {
      if (id !== null) byId.set(id, messages.length);
      messages.push(msg);
    }
  };
  const pass = forEachJsonLine(
    file,
    (v) => {
      onLine(v);
      const set = asObject(v.$set);
      if (set) {
        if (Array.isArray(set.messages)) {
          messages = [];
          byId = new Map();
          for (const m of set.messages) {
            const o = asObject(m);
            if (o) add(o);
          }
        }
        return;
      }
      add(v);
    },
    opts,
  );
  return { messages, pass };
}

/**
 * Gemini CLI's sessions: `<geminiHome>/tmp/<projectId>/chats/session-*.jsonl`. The first line is a
 * header (`sessionId`, `projectHash` = sha256 of the cwd, `startTime`, `lastUpdated`); then
 * `$set` patch lines (`$set.messages` resets the list) and message lines (`type` `user` or
 * `gemini`, `content`). Every start leaves an empty extra session file: files without a prompt
 * or an answer are not sessions. The same session can sit in two files (a load in another
 * minute starts a new file): the driver keeps the newest. The cwd comes from
 * `<geminiHome>/projects.json` (`{projects: {<cwd>: <projectId>}}`), applied after the cache.
 * A scan keeps only the first `PREVIEW_LOOK` characters of each message (what a preview looks at).
 */
export const geminiReader: AgentReader = {
  agent: 'gemini',

  list(dirs, warnings, unlisted) {
    const tmp = path.join(dirs.geminiHome, 'tmp');
    const projects = readDirQuietly(tmp, warnings, unlisted);
    if (!projects) return [];
    const out: string[] = [];
    for (const project of subdirs(tmp, projects)) {
      const chats = path.join(project, 'chats');
      const entries = readDirQuietly(chats, warnings, unlisted);
      if (entries) out.push(...filesIn(chats, entries, (n) => n.startsWith('session-') && n.endsWith('.jsonl')));
    }
    return out;
  },

  async read(file, stat, opts) {
    const warnings: ScanWarning[] = [];
    const projectId = path.basename(path.dirname(path.dirname(file)));
    const s = new AgentSummary('', file, stat, projectId);
    const read = { maxLineBytes: opts.maxLineBytes, size: stat.size, keepChars: PREVIEW_LOOK };
    const { messages, pass } = foldGemini(file, read, (v) => {
      const id = asString(v.sessionId);
      if (id && isAgentSessionId('gemini', id) && !s.id) s.id = id;
      s.time(v.startTime);
      s.time(v.lastUpdated);
      s.time(v.timestamp);
      const set = asObject(v.$set);
      if (set) {
        s.time(set.lastUpdated);
        s.title(asString(set.summary));
      }
    });
    for (const m of messages) {
      s.time(m.timestamp);
      if (m.role === 'user') s.user(m.text);
      else s.assistant(m.text);
    }
    const session = s.finish(warnings, pass);
    if (session.health === 'corrupted') {
      if (!session.sessionId) return { sessions: [], warnings };
      return { sessions: [session], warnings };
    }
    // Gemini's empty extra session (or a reset that left nothing): not a session.
    if (messages.length === 0) return { sessions: [], warnings };
    return oneSessionRead(session, warnings, file);
  },

  complete(sessions, dirs) {
    const cwdOf = projectCwds(path.join(dirs.geminiHome, 'projects.json'));
    for (const s of sessions) s.cwd ??= cwdOf.get(s.projectDir) ?? null;
  },

  watched: (dirs) => [path.join(dirs.geminiHome, 'projects.json')],

  async transcript(file, _id, opts) {
    return foldGemini(file, opts, () => undefined).messages;
  },
};

/**
 * Project directory name → cwd, from `projects.json`: each cwd's short id, and (older CLIs named
 * the directory by it) the sha256 of the cwd. Empty when the file is missing or not that shape.
 */
export function projectCwds(file: string): Map<string, string> {
  const out = new Map<string, string>();
  let projects: Record<string, unknown> | null = null;
  try {
    projects = asObject(asObject(JSON.parse(fs.readFileSync(file, 'utf8')))?.projects);
  } catch {
    return out;
  }
  const entries = Object.entries(projects ?? {});
  // Loaded only here, when there are projects: `init` and `sync` must not load node:crypto at start.
  const crypto = entries.length > 0 ? process.getBuiltinModule('node:crypto') : null;
  for (const [cwd, id] of entries) {
    if (typeof id === 'string') out.set(id, cwd);
    if (crypto) out.set(crypto.createHash('sha256').update(cwd).digest('hex'), cwd);
  }
  return out;
}
