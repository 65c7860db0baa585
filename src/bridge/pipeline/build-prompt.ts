import type { InboundFile } from '../inbound-message.js';
import { formatBytes } from '../../core/format-bytes.js';
import type { SpoolRecord } from '../spool/spool-record.js';
import { withTranscript } from '../voice/voice-turn.js';

/** The local files of a record's downloaded images. */
export function imagePaths(record: SpoolRecord): string[] {
  return record.message.images.map((i) => i.localPath).filter((p): p is string => typeof p === 'string');
}

/** The local files of a record's downloaded (non-image) attachments. */
export function filePaths(record: SpoolRecord): string[] {
  return (record.message.files ?? []).map((f) => f.localPath).filter((p): p is string => typeof p === 'string');
}

/**
 * One line naming a file for the agent: `[file: /abs/path (report.pdf, 1.2 MB, application/pdf)]`,
 * or `[file not downloaded: report.pdf — <reason>]`. The user's name is shown with its line
 * breaks and brackets flattened, so it cannot fake a line of its own.
 */
export function fileLine(file: InboundFile): string {
  const name = file.name.replace(/[\r\n\u0000-\u001f\u007f[\]]/g, ' ').trim() || file.key;
  if (!file.localPath) return `[file not downloaded: ${name} — ${file.error ?? 'unavailable'}]`;
  const facts = [name, ...(file.size === undefined ? [] : [formatBytes(file.size)]), ...(file.mime ? [file.mime] : [])];
  return `[file: ${file.localPath} (${facts.join(', ')})]`;
}

/**
 * The text with each file's line where the file stood (`InboundFile.at`, a rich-text message's
 * order); files without a place, or when the prompt is not the message's own text, come first.
 */
function textWithFiles(text: string, files: readonly InboundFile[], placed: boolean): string {
  const parts: string[] = [];
  let from = 0;
  const sorted = files
    .map((f, i) => ({ f, i, at: placed && f.at !== undefined ? Math.min(Math.max(f.at, 0), text.length) : -1 }))
    .sort((a, b) => a.at - b.at || a.i - b.i);
  for (const { f, at } of sorted) {
    if (at > from) parts.push(text.slice(from, at).trim());
    if (at > from) from = at;
    parts.push(fileLine(f));
  }
  parts.push(text.slice(from).trim());
  return parts.filter((p) => p !== '').join('\n');
}

/**
 * The prompt the agent sees: one line per downloaded image naming its local file
 * (`[用户发送了第1张图片: <path>]`), a line asking the agent to look at them (Claude Code opens the
 * files with its own tools), then the user's text — after a voice message's transcript — with a
 * line per file where it stood (`fileLine`).
 * Fixed wording, whatever the user's language: the agent reads it, the user never sees it. The
 * same record always gives the same prompt, which is how a re-run finds it in the session's
 * transcript.
 */
export function buildPrompt(record: SpoolRecord): string {
  const message = record.message;
  const own = record.prompt === undefined || record.prompt === message.text;
  const raw = record.prompt ?? message.text;
  const files = message.files ?? [];
  const text = withTranscript(message, files.length === 0 ? raw : textWithFiles(raw, files, own));
  const images = imagePaths(record);
  if (images.length === 0) return text;
  const lines = images.map((p, i) => `[用户发送了第${i + 1}张图片: ${p}]`);
  lines.push('请查看以上图片文件，然后理解图片内容。');
  if (text.length > 0) lines.push(text);
  return lines.join('\n');
}
