import fs from 'node:fs';
import { sortByLastActive } from '../registry/newest-first.js';
import { readJsonlLinesSync, type LineSink, type LineView } from '../scan/read-jsonl-lines.js';
import { readLineEliding } from '../scan/read-line-eliding.js';
import type { Registry } from '../registry/registry-schema.js';
import type { SessionRef } from '../registry/resolve-session.js';
import { scanReadBuffer } from '../scan/scan-jsonl.js';
import { readerOf } from '../scan/agent-files/agent-readers.js';

/** Where a query matched. */
export type MatchField = 'title' | 'preview' | 'project' | 'cwd' | 'content';

/** One search result: the session, what matched, and for content matches a snippet around it. */
export interface SearchHit extends SessionRef {
  fields: MatchField[];
  snippet: string | null;
}

/**
 * Searches the registry's metadata (title, the three previews, project name, cwd),
 * case-insensitively. Results are most recently active first.
 *
 * @example
 *   searchSessions(registry, 'readme') // [{ id, entry, fields: ['title'], snippet: null }, …]
 */
export function searchSessions(registry: Registry, query: string): SearchHit[] {
  const q = query.trim().toLowerCase();
  if (!q) return [];
  const hits: SearchHit[] = [];
  for (const [id, entry] of Object.entries(registry.sessions)) {
    const fields: MatchField[] = [];
    if (entry.title?.toLowerCase().includes(q)) fields.push('title');
    if (
      [entry.last_message_preview, entry.last_user_preview, entry.last_assistant_preview].some((p) =>
        p?.toLowerCase().includes(q),
      )
    )
      fields.push('preview');
    if (entry.project_name?.toLowerCase().includes(q)) fields.push('project');
    if (entry.cwd.toLowerCase().includes(q)) fields.push('cwd');
    if (fields.length > 0) hits.push({ id, entry, fields, snippet: null });
  }
  return sortByLastActive(hits);
}

/** Options of `searchContent`. */
export interface ContentSearchOptions {
  /** Files larger than this are not searched (`scanner.max_file_size`). */
  maxFileSize: number;
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
}

/**
 * Searches the message text (human prompts and assistant text, not tool output, not sidechains)
 * of every session file (another agent's through its reader's transcript), streaming each file line by line; stops reading a file at its first
 * match. Metadata matches are included too. Unreadable files are skipped silently (the registry
 * already marks them corrupted).
 */
export async function searchContent(
  registry: Registry,
  query: string,
  opts: ContentSearchOptions,
): Promise<SearchHit[]> {
  const q = query.trim().toLowerCase();
  if (!q) return [];
  const byId = new Map(searchSessions(registry, query).map((h) => [h.id, h]));
  const entries = Object.entries(registry.sessions).filter(([, e]) => e.jsonl_path);
  let done = 0;
  const buffer = scanReadBuffer();
  let lastYield = Date.now();
  for (const [id, entry] of entries) {
    if (opts.signal?.aborted) break;
    // Reads are synchronous (thread-pool reads left the process idle half the time): let timers
    // and signals run every ~20 ms.
    if (Date.now() - lastYield > 20) {
      await new Promise((resolve) => setImmediate(resolve));
      lastYield = Date.now();
      if (opts.signal?.aborted) break;
    }
    const reader = readerOf(entry.agent);
    const snippet = reader
      ? await firstAgentMatch(reader, entry.jsonl_path as string, id, q, opts.maxFileSize)
      : firstContentMatch(entry.jsonl_path as string, q, opts.maxFileSize, buffer);
    done += 1;
    opts.onProgress?.(done, entries.length);
    if (snippet === null) continue;
    const hit = byId.get(id) ?? { id, entry, fields: [], snippet: null };
    hit.fields.push('content');
    hit.snippet = snippet;
    byId.set(id, hit);
  }
  return sortByLastActive([...byId.values()]);
}

/**
 * The first human prompt or assistant text of `file` (not tool output, not sidechains) that holds
 * `q`, as a snippet; null when none does or the file cannot be read. Read synchronously into the
 * shared `buffer`, each line as the scanner reads it, and abandoned at the first match.
 */
function firstContentMatch(file: string, q: string, maxFileSize: number, buffer: Buffer): string | null {
  let fd: number;
  let size: number;
  try {
    size = fs.statSync(file).size;
    if (size > maxFileSize) return null;
    fd = fs.openSync(file, 'r');
  } catch {
    return null;
  }
  const matcher = new ContentMatcher(q);
  try {
    readJsonlLinesSync(fd, matcher, { buffer, size, signal: matcher });
  } catch {
    return null;
  } finally {
    fs.closeSync(fd);
  }
  return matcher.found;
}

/**
 * `firstContentMatch` for another agent's session: the first prompt or answer of its transcript
 * (read by its reader) that holds `q`; null when none does or the file cannot be read.
 */
async function firstAgentMatch(
  reader: NonNullable<ReturnType<typeof readerOf>>,
  file: string,
  id: string,
  q: string,
  maxFileSize: number,
): Promise<string | null> {
  try {
    if (fs.statSync(file).size > maxFileSize) return null;
    for (const m of await reader.transcript(file, id, {})) {
      const at = m.text.toLowerCase().indexOf(q);
      if (at >= 0) return snippetAround(m.text, at, q.length);
    }
  } catch {
    return null;
  }
  return null;
}

/** The line sink of `firstContentMatch`; `aborted` (its stop signal for the reader) once it has found. */
class ContentMatcher implements LineSink {
  found: string | null = null;

  constructor(private readonly q: string) {}

  get aborted(): boolean {
    return this.found !== null;
  }

  line(l: LineView): void {
    if (this.found !== null || l.truncated) return;
    const facts = readLineEliding(l.buf, l.start, l.end);
    if (facts === null || facts.sidechain || (facts.kind !== 'human' && facts.kind !== 'assistant')) return;
    const at = facts.text.toLowerCase().indexOf(this.q);
    if (at >= 0) this.found = snippetAround(facts.text, at, this.q.length);
  }
}

/** ~30 characters either side of the match, on one line. */
function snippetAround(text: string, at: number, len: number): string {
  const start = Math.max(0, at - 30);
  const end = Math.min(text.length, at + len + 30);
  return `${start > 0 ? '…' : ''}${text.slice(start, end).replace(/\s+/g, ' ').trim()}${end < text.length ? '…' : ''}`;
}
