import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeFileAtomic } from '../../store/atomic-write.js';
import { rotateBackups } from '../../store/rolling-backup.js';
import { SessionsError } from '../sessions-error.js';
import { shellQuote } from '../../core/shell-quote.js';

/**
 * The Claude Code SessionStart hook that tells cc-linker about new sessions: Claude runs it at every
 * session start, it writes a discovery event (see session-events.ts), and the next sync merges the
 * event into the registry — so a session started in a terminal shows up in chat `/list`.
 * It lives in Claude's `settings.json`:
 *
 * ```json
 * { "hooks": { "SessionStart": [ { "hooks": [ { "type": "command", "command": "node \"/…/dist/sessions/session-start-hook.cjs\"", "timeout": 10 } ] } ] } }
 * ```
 *
 * Install/uninstall touch only our own entry (recognised by the script name
 * `session-start-hook.cjs`, or the older `.js`): other hooks, other events and every other setting stay as they are.
 * The file is written atomically, keeps its mode, is followed through a symlink (dotfile managers),
 * and the previous version is kept in `backupDir` (`settings.json.1` …).
 */
export const HOOK_SCRIPT_NAME = 'session-start-hook.cjs';

/**
 * The ES module an older `hook install` pointed Claude at (it still works): a hook running it is
 * ours too — `status` calls it outdated, `install` replaces it, `uninstall` removes it.
 */
const LEGACY_SCRIPT_NAME = 'session-start-hook.js';

/** Whether our hook is in the settings and points at the script this install ships. */
export type HookState = 'installed' | 'not_installed' | 'outdated';

/** Where the settings are and which script the hook should run. */
export interface HookTarget {
  /** Claude's `settings.json` (`paths.claudeSettingsFile`). */
  settingsFile: string;
  /** Where previous versions of the settings are kept (`paths.registryBackupDir`). */
  backupDir: string;
  /** The hook script (default: `dist/sessions/session-start-hook.cjs` of this install). */
  scriptPath?: string;
  /** Set when cc-linker runs with a relocated home, so the hook writes events there too. */
  ccLinkerHome?: string;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The built hook script, `dist/sessions/session-start-hook.cjs` (one folder above this module's
 * `dist/sessions/hook/`: the path installed hooks run stays where it always was), also when
 * running from `src/` under tsx.
 */
export function defaultHookScript(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const built = path.resolve(here, '..', HOOK_SCRIPT_NAME);
  if (fs.existsSync(built)) return built;
  return path.resolve(here, '..', '..', '..', 'dist', 'sessions', HOOK_SCRIPT_NAME);
}

/** The shell command Claude runs. */
export function hookCommand(target: HookTarget): string {
  const script = target.scriptPath ?? defaultHookScript();
  const env = target.ccLinkerHome ? `CC_LINKER_HOME=${shellQuote(target.ccLinkerHome)} ` : '';
  return `${env}node ${shellQuote(script)}`;
}

/** The state of our hook in the settings (a missing or unparsable file counts as not installed). */
export async function hookStatus(target: HookTarget): Promise<{ state: HookState; command: string | null }> {
  let settings: Obj;
  try {
    settings = (await readSettings(target.settingsFile)).settings;
  } catch {
    return { state: 'not_installed', command: null };
  }
  const ours = ourCommands(settings);
  if (ours.length === 0) return { state: 'not_installed', command: null };
  const wanted = hookCommand(target);
  return { state: ours.includes(wanted) ? 'installed' : 'outdated', command: ours[0] ?? null };
}

/**
 * Adds (or refreshes) our SessionStart hook. Returns `changed: false` when it was already exactly
 * installed. A settings file that is not a JSON object is refused (`HOOK_SETTINGS_INVALID`) and
 * left untouched.
 */
export async function installHook(target: HookTarget): Promise<{ changed: boolean; file: string }> {
  const { settings, file, mode, existed } = await readSettings(target.settingsFile);
  const command = hookCommand(target);
  const ours = ourCommands(settings);
  if (ours.length === 1 && ours[0] === command) return { changed: false, file };
  removeOurs(settings);
  const hooks = isObj(settings.hooks) ? settings.hooks : (settings.hooks = {});
  const list = Array.isArray(hooks.SessionStart) ? hooks.SessionStart : (hooks.SessionStart = []);
  list.push({ hooks: [{ type: 'command', command, timeout: 10 }] });
  await save(file, settings, mode, existed, target.backupDir);
  return { changed: true, file };
}

/** Removes our hook (and only ours). `changed: false` when it was not there. */
export async function uninstallHook(target: HookTarget): Promise<{ changed: boolean; file: string }> {
  const { settings, file, mode, existed } = await readSettings(target.settingsFile);
  if (!existed || !removeOurs(settings)) return { changed: false, file };
  await save(file, settings, mode, existed, target.backupDir);
  return { changed: true, file };
}

async function readSettings(
  settingsFile: string,
): Promise<{ settings: Obj; file: string; mode: number; existed: boolean }> {
  let file = settingsFile;
  try {
    file = await fs.promises.realpath(settingsFile);
  } catch {
    /* does not exist yet */
  }
  let text: string;
  let mode = 0o600;
  try {
    text = await fs.promises.readFile(file, 'utf8');
    mode = (await fs.promises.stat(file)).mode & 0o777;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { settings: {}, file, mode, existed: false };
    throw new SessionsError(
      'HOOK_SETTINGS_INVALID',
      { file, reason: (err as NodeJS.ErrnoException).code ?? 'unreadable' },
      { cause: err },
    );
  }
  if (!text.trim()) return { settings: {}, file, mode, existed: true };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new SessionsError('HOOK_SETTINGS_INVALID', { file, reason: 'invalid JSON' }, { cause: err });
  }
  if (!isObj(value)) throw new SessionsError('HOOK_SETTINGS_INVALID', { file, reason: 'not a JSON object' });
  if (value.hooks !== undefined && !isObj(value.hooks))
    throw new SessionsError('HOOK_SETTINGS_INVALID', { file, reason: '"hooks" is not an object' });
  if (isObj(value.hooks) && value.hooks.SessionStart !== undefined && !Array.isArray(value.hooks.SessionStart))
    throw new SessionsError('HOOK_SETTINGS_INVALID', { file, reason: '"hooks.SessionStart" is not an array' });
  return { settings: value, file, mode, existed: true };
}

async function save(file: string, settings: Obj, mode: number, existed: boolean, backupDir: string): Promise<void> {
  if (existed) await rotateBackups(file, backupDir, 3);
  await writeFileAtomic(file, `${JSON.stringify(settings, null, 2)}\n`, { mode });
}

function isOurs(hook: unknown): boolean {
  return (
    isObj(hook) &&
    typeof hook.command === 'string' &&
    (hook.command.includes(HOOK_SCRIPT_NAME) || hook.command.includes(LEGACY_SCRIPT_NAME))
  );
}

function ourCommands(settings: Obj): string[] {
  const list = isObj(settings.hooks) && Array.isArray(settings.hooks.SessionStart) ? settings.hooks.SessionStart : [];
  const out: string[] = [];
  for (const group of list)
    if (isObj(group) && Array.isArray(group.hooks))
      for (const h of group.hooks) if (isOurs(h)) out.push((h as Obj).command as string);
  return out;
}

/** Removes our hook entries, then groups left empty, then an empty SessionStart / hooks. */
function removeOurs(settings: Obj): boolean {
  if (!isObj(settings.hooks) || !Array.isArray(settings.hooks.SessionStart)) return false;
  let removed = false;
  const groups: unknown[] = [];
  for (const group of settings.hooks.SessionStart) {
    if (!isObj(group) || !Array.isArray(group.hooks)) {
      groups.push(group);
      continue;
    }
    const kept = group.hooks.filter((h) => !isOurs(h));
    if (kept.length !== group.hooks.length) removed = true;
    if (kept.length > 0) groups.push({ ...group, hooks: kept });
  }
  if (!removed) return false;
  if (groups.length > 0) settings.hooks.SessionStart = groups;
  else delete settings.hooks.SessionStart;
  if (Object.keys(settings.hooks).length === 0) delete settings.hooks;
  return true;
}
