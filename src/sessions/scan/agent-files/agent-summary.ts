import { preview } from '../preview.js';
import type { AgentFileRead } from './agent-reader.js';
import { blankSession, type ScannedSession } from '../scanned-session.js';
import type { ScanWarning } from '../scan-warning.js';
import type { AgentFileStat } from './agent-reader.js';
import type { JsonLinesPass } from './json-lines.js';

/** Preview lengths, the same as Claude Code sessions' (see `session-summary.ts`). */
const CHARS = { message: 100, user: 80, assistant: 80, title: 100 } as const;

/**
 * One session of another agent, built from its messages in order: counts every prompt and every
 * answer, keeps the first prompt (the fallback title), the last of each for the previews, and the
 * oldest and newest times (a session with none takes its file's). `reset` forgets the messages
 * (Gemini rewrites its list with `$set.messages`). Field meanings are `ScannedSession`'s.
 */
export class AgentSummary {
  private readonly session: ScannedSession;
  private first = Number.NaN;
  private newest = Number.NaN;
  private seq = 0;
  private lastUserSeq = -1;
  private lastUser = '';
  private lastAnswerSeq = -1;
  private lastAnswer = '';

  constructor(
    id: string,
    file: string,
    private readonly stat: AgentFileStat,
    /** The storage's own grouping (Gemini's project id, Qwen's directory name), else ''. */
    projectDir = '',
  ) {
    this.session = blankSession(file, stat.size, stat.mtimeMs);
    this.session.sessionId = id;
    this.session.projectDir = projectDir;
  }

  get id(): string {
    return this.session.sessionId;
  }

  set id(id: string) {
    this.session.sessionId = id;
  }

  get messages(): number {
    return this.session.messageCount;
  }

  cwd(cwd: string | null): void {
    if (cwd && this.session.cwd === null) this.session.cwd = cwd;
  }

  title(title: string | null): void {
    if (title && title.trim()) this.session.title = preview(title, CHARS.title);
  }

  model(model: string | null): void {
    if (model) this.session.model = model;
  }

  /** A time: an ISO string or epoch milliseconds; anything else is ignored. */
  time(t: unknown): void {
    const ms = typeof t === 'number' ? t : typeof t === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(t) ? Date.parse(t) : NaN;
    if (!Number.isFinite(ms)) return;
    if (Number.isNaN(this.first) || ms < this.first) this.first = ms;
    if (Number.isNaN(this.newest) || ms > this.newest) this.newest = ms;
  }

  user(text: string): void {
    this.seq += 1;
    this.session.messageCount += 1;
    this.lastUserSeq = this.seq;
    this.lastUser = text;
    if (this.session.firstPrompt === null && text.trim()) this.session.firstPrompt = preview(text, CHARS.title);
  }

  assistant(text: string): void {
    this.seq += 1;
    this.session.messageCount += 1;
    if (!text.trim()) return;
    this.lastAnswerSeq = this.seq;
    this.lastAnswer = text;
  }

  /** Forgets every message (not the times, cwd or title). */
  reset(): void {
    this.session.messageCount = 0;
    this.session.firstPrompt = null;
    this.seq = 0;
    this.lastUserSeq = this.lastAnswerSeq = -1;
    this.lastUser = this.lastAnswer = '';
  }

  /**
   * The session. With `pass` (a JSONL file's read), a file with no JSON object line at all is
   * `corrupted` ("not JSONL"), and invalid or over-long lines are reported in `warnings`.
   */
  finish(warnings: ScanWarning[], pass?: JsonLinesPass): ScannedSession {
    const s = this.session;
    const answerNewer = this.lastAnswerSeq > this.lastUserSeq;
    s.lastMessagePreview = preview(answerNewer ? this.lastAnswer : this.lastUser, CHARS.message);
    s.lastUserPreview = preview(this.lastUser, CHARS.user);
    s.lastAssistantPreview = preview(this.lastAnswer, CHARS.assistant);
    const { stat } = this;
    s.createdAt = new Date(Number.isNaN(this.first) ? stat.birthtimeMs || stat.mtimeMs : this.first).toISOString();
    s.lastActive = new Date(Number.isNaN(this.newest) ? stat.mtimeMs : this.newest).toISOString();
    if (pass) {
      if (pass.objects === 0 && pass.invalid > 0) {
        s.health = 'corrupted';
        s.problem = 'not JSONL';
        warnings.push({ code: 'not_jsonl', file: s.jsonlPath });
      } else if (pass.invalid > 0) warnings.push({ code: 'invalid_lines', file: s.jsonlPath, detail: pass.invalid });
      if (pass.overLong > 0) warnings.push({ code: 'long_lines', file: s.jsonlPath, detail: pass.overLong });
    }
    return s;
  }
}

/** The text of Gemini/Qwen style `parts` (`[{text}, {functionCall}, …]`): the text parts joined. */
export function partsText(parts: unknown): string {
  if (typeof parts === 'string') return parts;
  if (!Array.isArray(parts)) return '';
  const texts: string[] = [];
  for (const p of parts) {
    if (typeof p === 'string') texts.push(p);
    else if (typeof p === 'object' && p !== null && typeof (p as { text?: unknown }).text === 'string')
      if ((p as { thought?: unknown }).thought !== true) texts.push((p as { text: string }).text);
  }
  return texts.join('\n');
}

/** A one-session file's read: its session, or none and a `no_session_id` warning when no line named it. */
export function oneSessionRead(session: ScannedSession, warnings: ScanWarning[], file: string): AgentFileRead {
  if (!session.sessionId) return { sessions: [], warnings: [...warnings, { code: 'no_session_id', file }] };
  return { sessions: [session], warnings };
}
