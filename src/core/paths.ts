import os from 'node:os';
import path from 'node:path';

/**
 * Every location cc-linker reads or writes, derived in one place.
 *
 * `CC_LINKER_HOME` relocates `~/.cc-linker` (tests and multiple installs use it); Claude Code's own
 * directory follows `CLAUDE_CONFIG_DIR`, else `$HOME/.claude`, exactly as the CLI does.
 */
export interface Paths {
  /** The user's home directory (`$HOME`), used for `~` expansion. */
  readonly userHome: string;
  /** `~/.cc-linker` (or `$CC_LINKER_HOME`). Directories under it are 0700, files 0600. */
  readonly home: string;
  readonly configFile: string;
  readonly registryFile: string;
  /** Rolling backups of the registry (`registry.json.1` … `.N`). */
  readonly registryBackupDir: string;
  readonly userMappingFile: string;
  /** Scanner cache: per-file mtime + size + parsed summary, for incremental rescans. */
  readonly scanCacheFile: string;
  readonly runtimeDir: string;
  /** `runtime/owner.lock`: the single writer of the runtime state. */
  readonly ownerLockFile: string;
  /** Written by the Claude Code SessionStart hook; merged on every scan. */
  readonly sessionEventsDir: string;
  /** Process groups of live children, so a restart can kill what a crash left behind. */
  readonly childrenDir: string;
  readonly pidFile: string;
  readonly defaultSpoolDir: string;
  readonly imagesDir: string;
  /** Files the user sends, one 0700 folder per message (`attachments/<message id>/`). */
  readonly attachmentsDir: string;
  readonly permissionsFile: string;
  /** "Always allow" answers given to ACP agents (Codex, Qwen Code, …), per agent. */
  readonly agentPermissionsFile: string;
  readonly ccexecDir: string;
  readonly auditFile: string;
  /** `ccexec/cli-version.json`: the CLI's `--version` by fingerprint, so `ask` does not start it each time. */
  readonly ccexecVersionFile: string;
  readonly webTokenFile: string;
  readonly defaultLogFile: string;
  readonly locksDir: string;
  /** Claude Code's own directory: `$CLAUDE_CONFIG_DIR` or `$HOME/.claude`. */
  readonly claudeDir: string;
  readonly claudeProjectsDir: string;
  readonly claudeSettingsFile: string;
  /** Codex's own directory: `$CODEX_HOME` or `$HOME/.codex` (sessions under `sessions/`). */
  readonly codexHome: string;
  /** Gemini CLI's directory: `$HOME/.gemini` (chats under `tmp/<project>/chats/`). */
  readonly geminiHome: string;
  /** Qwen Code's directory: `$HOME/.qwen` (chats under `projects/<cwd>/chats/`). */
  readonly qwenHome: string;
  /** OpenCode's data directory: `$XDG_DATA_HOME/opencode` or `$HOME/.local/share/opencode` (`opencode.db`). */
  readonly opencodeDataDir: string;
}

/** Resolves all paths from an environment (defaults to `process.env`). Pure: creates nothing. */
export function resolvePaths(env: NodeJS.ProcessEnv = process.env): Paths {
  const userHome = env.HOME && env.HOME.length > 0 ? env.HOME : os.homedir();
  const home = path.resolve(
    env.CC_LINKER_HOME && env.CC_LINKER_HOME.length > 0 ? env.CC_LINKER_HOME : path.join(userHome, '.cc-linker'),
  );
  const runtimeDir = path.join(home, 'runtime');
  const claudeDir = path.resolve(
    env.CLAUDE_CONFIG_DIR && env.CLAUDE_CONFIG_DIR.length > 0 ? env.CLAUDE_CONFIG_DIR : path.join(userHome, '.claude'),
  );
  const ccexecDir = path.join(home, 'ccexec');
  const set = (v: string | undefined): v is string => v !== undefined && v.length > 0;
  const dataHome = set(env.XDG_DATA_HOME) ? env.XDG_DATA_HOME : path.join(userHome, '.local', 'share');
  return {
    userHome,
    home,
    configFile: path.join(home, 'config.toml'),
    registryFile: path.join(home, 'registry.json'),
    registryBackupDir: path.join(home, 'backups'),
    userMappingFile: path.join(home, 'user-mapping.json'),
    scanCacheFile: path.join(home, 'scan-cache.json'),
    runtimeDir,
    ownerLockFile: path.join(runtimeDir, 'owner.lock'),
    sessionEventsDir: path.join(runtimeDir, 'session-events'),
    childrenDir: path.join(runtimeDir, 'children'),
    pidFile: path.join(runtimeDir, 'cc-linker.pid'),
    defaultSpoolDir: path.join(home, 'spool'),
    imagesDir: path.join(home, 'images'),
    attachmentsDir: path.join(home, 'attachments'),
    permissionsFile: path.join(home, 'permissions.json'),
    agentPermissionsFile: path.join(home, 'agent-permissions.json'),
    ccexecDir,
    auditFile: path.join(ccexecDir, 'audit.jsonl'),
    ccexecVersionFile: path.join(ccexecDir, 'cli-version.json'),
    webTokenFile: path.join(home, 'web-token'),
    defaultLogFile: path.join(home, 'cc-linker.log'),
    locksDir: path.join(home, 'locks'),
    claudeDir,
    claudeProjectsDir: path.join(claudeDir, 'projects'),
    claudeSettingsFile: path.join(claudeDir, 'settings.json'),
    codexHome: path.resolve(set(env.CODEX_HOME) ? env.CODEX_HOME : path.join(userHome, '.codex')),
    geminiHome: path.resolve(userHome, '.gemini'),
    qwenHome: path.resolve(userHome, '.qwen'),
    opencodeDataDir: path.resolve(dataHome, 'opencode'),
  };
}
