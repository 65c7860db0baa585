import fs from 'node:fs/promises';
import path from 'node:path';
import { bridgeMessages } from '../bridge-messages.js';
import { checkWorkingDirectory } from './dir-safety.js';
import { tildify } from '../../core/tildify.js';
import type { CardButton, CardSection, Reply } from '../reply-model.js';
import { textReply } from '../reply-model.js';
import type { CommandContext, CommandOutcome } from './command-context.js';
import { dirPolicy } from './dir-policy.js';

/** Subdirectories one card shows: enough to choose from, few enough to fit one chat card. */
export const LIST_DIR_LIMIT = 15;

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** `/listDir [path]`: the directory browser card. */
export async function handleListDir(
  cmd: { name: 'listDir'; path?: string },
  ctx: CommandContext,
): Promise<CommandOutcome> {
  return { reply: await dirBrowser(cmd.path, ctx) };
}

/**
 * The directory browser. Without `input` it starts from the user's current
 * directory: the active session's, else the pending entry's, else `feishu_bot.default_cwd`, else
 * the first allowed root — the first of these that passes the safety check. A relative `input`
 * is taken relative to that start. Shows ⬆️ parent (when the parent is allowed), "use this
 * directory", and up to 15 non-hidden subdirectories sorted by name, each with a `browse_dir`
 * (enter) and a `select_dir` (use) button. Every path shown or put on a button has passed the
 * directory-safety check, so a symlink leading out of the allowed roots is simply not listed.
 */
export async function dirBrowser(input: string | undefined, ctx: CommandContext): Promise<Reply> {
  const t = bridgeMessages(ctx.lang);
  const start = await startDirectory(ctx);
  let dir: string;
  if (input !== undefined) {
    const r = await checkWorkingDirectory(input, dirPolicy(ctx, start ?? undefined));
    if (!r.ok) return textReply(r.message);
    dir = r.realPath;
  } else {
    if (!start) return textReply(t('listDirNoStart'));
    dir = start;
  }

  let names: string[];
  try {
    const entries = await fs.readdir(dir, { withFileTypes: true });
    names = entries
      .filter((e) => !e.name.startsWith('.') && (e.isDirectory() || e.isSymbolicLink()))
      .map((e) => e.name);
  } catch (err) {
    return textReply(
      t('listDirUnreadable', {
        path: tildify(dir, ctx.paths.userHome),
        reason: (err as NodeJS.ErrnoException).code ?? String(err),
      }),
    );
  }
  names.sort(collator.compare);

  const shown: Array<{ name: string; realPath: string }> = [];
  let checked = 0;
  for (const name of names) {
    if (shown.length >= LIST_DIR_LIMIT) break;
    checked += 1;
    const r = await checkWorkingDirectory(path.join(dir, name), dirPolicy(ctx));
    if (r.ok) shown.push({ name, realPath: r.realPath });
  }
  const more = names.length - checked;

  const sections: CardSection[] = [
    { type: 'plain', text: t('listDirCurrent', { path: tildify(dir, ctx.paths.userHome) }) },
  ];
  if (shown.length === 0) sections.push({ type: 'markdown', text: t('listDirEmpty') });
  if (more > 0) sections.push({ type: 'markdown', text: t('listDirMore', { n: more }) });

  const buttons: CardButton[] = [];
  const parent = path.dirname(dir);
  if (parent !== dir && (await checkWorkingDirectory(parent, dirPolicy(ctx))).ok) {
    buttons.push({ label: t('listDirParent'), action: { type: 'browse_dir', path: parent } });
  }
  buttons.push({ label: t('listDirSelectHere'), style: 'primary', action: { type: 'select_dir', path: dir } });
  for (const d of shown) {
    buttons.push({ label: t('listDirEnter', { name: d.name }), action: { type: 'browse_dir', path: d.realPath } });
    buttons.push({ label: t('listDirSelect', { name: d.name }), action: { type: 'select_dir', path: d.realPath } });
  }
  return { kind: 'card', title: t('listDirTitle'), status: 'info', sections, buttons };
}

/** The first allowed directory among: current target's cwd, `default_cwd`, the allowed roots. */
async function startDirectory(ctx: CommandContext): Promise<string | null> {
  const entry = await ctx.mapping.get(ctx.userId);
  const candidates = [entry?.cwd, ctx.config.feishu_bot.default_cwd, ...ctx.config.security.allowed_roots].filter(
    (c): c is string => typeof c === 'string' && c.length > 0,
  );
  for (const c of candidates) {
    const r = await checkWorkingDirectory(c, dirPolicy(ctx));
    if (r.ok) return r.realPath;
  }
  return null;
}
