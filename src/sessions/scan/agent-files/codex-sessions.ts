import path from 'node:path';
import type { AgentMessage, AgentReader } from './agent-reader.js';
import { isAgentSessionId } from './agent-name.js';
import { AgentSummary, oneSessionRead } from './agent-summary.js';
import { asObject, asString, forEachJsonLine } from './json-lines.js';
import { filesIn, readDirQuietly, subdirs } from './list-files.js';
import type { ScanWarning } from '../scan-warning.js';

/** `rollout-<YYYY-MM-DDTHH-MM-SS>-<id>.jsonl`: the id is what follows the time. */
const ROLLOUT = /^rollout-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-(.+)\.jsonl$/;

/** The session id a rollout file's name gives, or null. */
export function codexIdOfFile(file: string): string | null {
  const id = ROLLOUT.exec(path.basename(file))?.[1];
  return id && isAgentSessionId('codex', id) ? id : null;
}

/** One line's meaning for Codex: the session's metadata, a prompt, an answer, or nothing. */
function codexLine(v: Record<string, unknown>): {
  meta?: { id: string | null; cwd: string | null; timestamp: unknown; model: string | null };
  message?: AgentMessage;
} {
  const payload = asObject(v.payload);
  if (!payload) return {};
  if (v.type === 'session_meta')
    return {
      meta: {
        id: asString(payload.id),
        cwd: asString(payload.cwd),
        timestamp: payload.timestamp,
        model: asString(payload.model),
      },
    };
  if (v.type !== 'event_msg') return {};
  const text = asString(payload.message) ?? '';
  const timestamp = asString(v.timestamp);
  if (payload.type === 'user_message') return { message: { role: 'user', timestamp, text } };
  if (payload.type === 'agent_message') return { message: { role: 'assistant', timestamp, text } };
  return {};
}

/**
 * Codex's sessions: `<codexHome>/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl`, one session a
 * file. The first line is `session_meta` (`payload.id`, `timestamp`, `cwd`); the prompts and
 * answers are the `event_msg` lines of payload type `user_message` and `agent_message` (the
 * `response_item` lines repeat them for the model, with tool calls, and are not counted). The id
 * is the metadata's, else the file name's; a file with neither is skipped with a `not_jsonl`
 * warning when unreadable as JSONL.
 */
export const codexReader: AgentReader = {
  agent: 'codex',

  list(dirs, warnings, unlisted) {
    const out: string[] = [];
    const walk = (dir: string, depth: number) => {
      const entries = readDirQuietly(dir, warnings, unlisted);
      if (!entries) return;
      if (depth === 3) out.push(...filesIn(dir, entries, (n) => n.startsWith('rollout-') && n.endsWith('.jsonl')));
      else for (const sub of subdirs(dir, entries)) walk(sub, depth + 1);
    };
    walk(path.join(dirs.codexHome, 'sessions'), 0);
    return out;
  },

  async read(file, stat, opts) {
    const warnings: ScanWarning[] = [];
    const s = new AgentSummary(codexIdOfFile(file) ?? '', file, stat);
    const pass = forEachJsonLine(
      file,
      (v) => {
        s.time(v.timestamp);
        const { meta, message } = codexLine(v);
        if (meta) {
          if (meta.id && isAgentSessionId('codex', meta.id)) s.id = meta.id;
          s.cwd(meta.cwd);
          s.time(meta.timestamp);
          s.model(meta.model);
        }
        if (message?.role === 'user') s.user(message.text);
        else if (message) s.assistant(message.text);
      },
      { maxLineBytes: opts.maxLineBytes, size: stat.size },
    );
    const session = s.finish(warnings, pass);
    return oneSessionRead(session, warnings, file);
  },

  async transcript(file, _id, opts) {
    const out: AgentMessage[] = [];
    forEachJsonLine(
      file,
      (v) => {
        const { message } = codexLine(v);
        if (message) out.push(message);
      },
      opts,
    );
    return out;
  },
};
