import path from 'node:path';
import type { AgentMessage, AgentReader } from './agent-reader.js';
import { isAgentSessionId } from './agent-name.js';
import { AgentSummary, oneSessionRead, partsText } from './agent-summary.js';
import { asObject, asString, forEachJsonLine } from './json-lines.js';
import { filesIn, readDirQuietly, subdirs } from './list-files.js';
import type { ScanWarning } from '../scan-warning.js';

/** A line's message: `user` lines are prompts, `assistant` lines answers; tool results and system lines are neither. */
function qwenMessage(v: Record<string, unknown>): AgentMessage | null {
  const role = v.type === 'user' ? 'user' : v.type === 'assistant' ? 'assistant' : null;
  if (!role) return null;
  return { role, timestamp: asString(v.timestamp), text: partsText(asObject(v.message)?.parts) };
}

/**
 * Qwen Code's sessions: `<qwenHome>/projects/<cwd with "/" → "-">/chats/<sessionId>.jsonl`, one
 * session a file. Each line is `{sessionId, timestamp, type, cwd, message: {role, parts}}`; `type`
 * `user` is a prompt and `assistant` an answer (one line per model response, counted each),
 * `tool_result` and `system` (telemetry) lines give times only. The id is the file name's when it
 * has the shape of one, else the lines' `sessionId`.
 */
export const qwenReader: AgentReader = {
  agent: 'qwen',

  list(dirs, warnings, unlisted) {
    const root = path.join(dirs.qwenHome, 'projects');
    const projects = readDirQuietly(root, warnings, unlisted);
    if (!projects) return [];
    const out: string[] = [];
    for (const project of subdirs(root, projects)) {
      const chats = path.join(project, 'chats');
      const entries = readDirQuietly(chats, warnings, unlisted);
      if (entries) out.push(...filesIn(chats, entries, (n) => n.endsWith('.jsonl')));
    }
    return out;
  },

  async read(file, stat, opts) {
    const warnings: ScanWarning[] = [];
    const named = path.basename(file, '.jsonl');
    const projectDir = path.basename(path.dirname(path.dirname(file)));
    const s = new AgentSummary(isAgentSessionId('qwen', named) ? named : '', file, stat, projectDir);
    const pass = forEachJsonLine(
      file,
      (v) => {
        s.time(v.timestamp);
        s.cwd(asString(v.cwd));
        const id = asString(v.sessionId);
        if (!s.id && id && isAgentSessionId('qwen', id)) s.id = id;
        const m = qwenMessage(v);
        if (m?.role === 'user') s.user(m.text);
        else if (m) s.assistant(m.text);
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
        const m = qwenMessage(v);
        if (m) out.push(m);
      },
      opts,
    );
    return out;
  },
};
