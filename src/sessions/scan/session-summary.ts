import type { LineFacts } from './line-facts.js';
import { preview } from './preview.js';
import { encodeProjectDir } from './project-dir.js';
import type { LineSink, LineView } from './read-jsonl-lines.js';
import type { ReadLine } from './read-line.js';
import { readLineEliding } from './read-line-eliding.js';
import { blankSession, type ScannedSession } from './scanned-session.js';
import type { ScanWarning } from './scan-warning.js';

/**
 * Preview lengths in characters: the last message's preview and a title (from a title line or
 * the first prompt) 100, the last prompt's and the last answer's 80.
 */
const PREVIEW_CHARS = { message: 100, user: 80, assistant: 80, title: 100 } as const;

/** How many recent assistant message ids are remembered for counting messages. */
const ID_RING = 64;

/** A timestamp the summary takes: an ISO 8601 date-time (`2026-05-05T10:30:00.000Z`, any offset). */
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T/;

/** What a summary of one file gives: the session, and what was worth telling about the file. */
export interface SummaryResult {
  session: ScannedSession;
  warnings: ScanWarning[];
}

/**
 * The summary of one session file, built line by line (`line`, a `LineSink` for
 * `readJsonlLines`) and completed by `finish`. Each line is read by a `ReadLine` (by default the
 * scanner's `readLineEliding`; tests pass every implementation) into its facts:
 *
 * - times: the first line's timestamp is `createdAt`, the newest `lastActive`; timestamps that
 *   are not ISO date-times are ignored, and a file with none takes its file times;
 * - cwd: the first one that encodes to the file's project directory, else the first one seen;
 * - sidechain (sub-agent) lines give times and cwd only;
 * - messages: every human prompt, and every assistant API message once — the CLI writes one line
 *   per content block, all sharing `message.id`, so an id counts once (ids are remembered over
 *   the last 64 messages, which covers blocks interleaved with tool results);
 * - title: the best-ranked title line (a `/rename` over an AI title over an old summary), the
 *   newest of equal rank; `firstPrompt` is the fallback title;
 * - health: a file whose lines are all invalid is `corrupted`; invalid lines (but not a partial
 *   last line, which may still be being written) and over-long lines are reported.
 *
 * @example
 *   const summary = new SessionSummary(file, stat);
 *   readJsonlLinesSync(fd, summary);
 *   return summary.finish([]);
 */
export class SessionSummary implements LineSink {
  private readonly session: ScannedSession;
  private firstCwd: string | null = null;
  private matchedCwd = false;
  private titleRank = 0;
  private valid = 0;
  private invalid = 0;
  private partialLast = false;
  private overLong = 0;
  private firstTime = Number.NaN;
  private newestTime = Number.NaN;
  /** Order of prompts and answers, to tell which came last. */
  private seq = 0;
  private lastUserSeq = -1;
  private lastUserText = '';
  private lastAnswerSeq = -1;
  private lastAnswerText = '';
  private lastId: string | null = null;
  private readonly recentIds: string[] = [];
  private readonly recentSet = new Set<string>();

  constructor(
    file: string,
    private readonly stat: { size: number; mtimeMs: number; birthtimeMs: number },
    private readonly readLine: ReadLine = readLineEliding,
  ) {
    this.session = blankSession(file, stat.size, stat.mtimeMs);
  }

  /** Takes one line (see `readJsonlLines`); the view is only read during the call. */
  line(l: LineView): void {
    if (l.truncated) {
      // Its middle was never read (longer than the reader's line limit): it cannot be read as JSON.
      this.overLong += 1;
      this.valid += 1;
      return;
    }
    const facts = this.readLine(l.buf, l.start, l.end);
    if (facts === null) {
      if (l.last) this.partialLast = true;
      else this.invalid += 1;
      return;
    }
    this.valid += 1;
    this.take(facts);
  }

  /** The summary after the last line; `warnings` gets what is worth telling about the file. */
  finish(warnings: ScanWarning[]): SummaryResult {
    const { session, stat } = this;
    if (!this.matchedCwd) session.cwd = this.firstCwd;
    const answerNewer = this.lastAnswerSeq > this.lastUserSeq;
    session.lastMessagePreview = preview(answerNewer ? this.lastAnswerText : this.lastUserText, PREVIEW_CHARS.message);
    session.lastUserPreview = preview(this.lastUserText, PREVIEW_CHARS.user);
    session.lastAssistantPreview = preview(this.lastAnswerText, PREVIEW_CHARS.assistant);
    session.createdAt = new Date(
      Number.isNaN(this.firstTime) ? stat.birthtimeMs || stat.mtimeMs : this.firstTime,
    ).toISOString();
    session.lastActive = new Date(Number.isNaN(this.newestTime) ? stat.mtimeMs : this.newestTime).toISOString();
    if (this.valid === 0 && (this.invalid > 0 || this.partialLast)) {
      session.health = 'corrupted';
      session.problem = 'not JSONL';
      warnings.push({ code: 'not_jsonl', file: session.jsonlPath });
    } else if (this.invalid > 0)
      warnings.push({ code: 'invalid_lines', file: session.jsonlPath, detail: this.invalid });
    if (this.overLong > 0) warnings.push({ code: 'long_lines', file: session.jsonlPath, detail: this.overLong });
    return { session, warnings };
  }

  private take(f: LineFacts): void {
    const { session } = this;
    this.noteTime(f.timestamp);
    this.noteCwd(f.cwd);
    if (f.sidechain) return;
    if (f.kind === 'title' && f.title !== null && f.titleRank >= this.titleRank) {
      this.titleRank = f.titleRank;
      session.title = preview(f.title, PREVIEW_CHARS.title);
    } else if (f.kind === 'human') {
      this.seq += 1;
      session.messageCount += 1;
      this.lastUserSeq = this.seq;
      this.lastUserText = f.text;
      if (session.firstPrompt === null) session.firstPrompt = preview(f.text, PREVIEW_CHARS.title);
    } else if (f.kind === 'assistant') {
      this.seq += 1;
      if (f.model) session.model = f.model;
      if (this.isNewMessage(f.messageId)) session.messageCount += 1;
      if (f.text.trim()) {
        this.lastAnswerSeq = this.seq;
        this.lastAnswerText = f.text;
      }
    }
  }

  /** Whether an assistant line starts a message not counted yet (see the class comment). */
  private isNewMessage(id: string | null): boolean {
    if (id === null) return true;
    const seen = id === this.lastId || this.recentSet.has(id);
    this.lastId = id;
    if (seen) return false;
    this.recentIds.push(id);
    this.recentSet.add(id);
    if (this.recentIds.length > ID_RING) this.recentSet.delete(this.recentIds.shift() as string);
    return true;
  }

  private noteCwd(cwd: string | null): void {
    if (cwd === null || this.matchedCwd) return;
    if (this.firstCwd === null) this.firstCwd = cwd;
    if (encodeProjectDir(cwd) === this.session.projectDir) {
      this.matchedCwd = true;
      this.session.cwd = cwd;
    }
  }

  private noteTime(ts: string | null): void {
    if (ts === null || !ISO_DATE_TIME.test(ts)) return;
    const t = Date.parse(ts);
    if (Number.isNaN(t)) return;
    if (Number.isNaN(this.firstTime)) this.firstTime = t;
    if (Number.isNaN(this.newestTime) || t > this.newestTime) this.newestTime = t;
  }
}
