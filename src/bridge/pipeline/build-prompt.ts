import type { SpoolRecord } from '../spool/spool-record.js';

/** The local files of a record's downloaded images. */
export function imagePaths(record: SpoolRecord): string[] {
  return record.message.images.map((i) => i.localPath).filter((p): p is string => typeof p === 'string');
}

/**
 * The prompt Claude sees: one line per downloaded image naming its local file
 * (`[用户发送了第1张图片: <path>]`), a line asking Claude to look at them (Claude Code opens the files
 * with its own tools), then the user's text. Fixed wording, whatever the user's language: Claude
 * reads it, the user never sees it. The same record always gives the same prompt, which is how a
 * re-run finds it in the session's transcript.
 */
export function buildPrompt(record: SpoolRecord): string {
  const text = record.prompt ?? record.message.text;
  const images = imagePaths(record);
  if (images.length === 0) return text;
  const lines = images.map((p, i) => `[用户发送了第${i + 1}张图片: ${p}]`);
  lines.push('请查看以上图片文件，然后理解图片内容。');
  if (text.length > 0) lines.push(text);
  return lines.join('\n');
}
