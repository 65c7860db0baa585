import type { CliContext } from '../context/cli-context.js';
import type { CommandSpec } from './command-spec.js';
import { commandMessages } from './command-messages.js';

/**
 * `cc-linker resume <id> [--exec]`, by the session's status:
 * - active / archived: print `cd <cwd> && claude --resume <uuid>` (`claude` is the absolute path of
 *   the binary cc-linker runs when `claude` is not on PATH) — for another agent's session,
 *   that agent's own command (`codex resume <id>`, `gemini --resume <id>`, `qwen --resume <id>`,
 *   `opencode --session <id>`; see `resumeCommandLine`);
 * - provisioning / degraded: first look for the session file; when found (and `start` is not
 *   running) the registry is repaired, then as above; when not, a one-line error says why and
 *   suggests `cc-linker repair`;
 * - corrupted, or an id that is not a session id (an older version's entry): refused.
 * The directory and the id are quoted for the shell. `--exec` runs `claude --resume=<uuid>` in the
 * session's directory with the terminal attached and exits with its exit code (Claude Code's
 * sessions only: for another agent's it is an error that prints the command to run instead).
 */
export const resumeCommand: CommandSpec = {
  name: 'resume',
  description: 'Print (or --exec) the command that resumes a session in this terminal',
  args: [{ name: '<id>', description: 'session id or id prefix' }],
  options: [{ flags: '--exec', description: 'run claude --resume now, in the session directory' }],
  action: async (ctx, idPrefix: string, opts: { exec?: boolean }) => {
    const [
      { requireRegistry },
      { resolveSession },
      { locateSessionFile },
      { repairSession },
      { SessionsError },
      { readOwnerLock },
      { resumeCommandLine },
      { isAgentSessionId },
      fmt,
      { printWarnings },
      { claudeProgramFor },
    ] = await Promise.all([
      import('../../sessions/registry/read-registry.js'),
      import('../../sessions/registry/resolve-session.js'),
      import('../../sessions/scan/locate-session-file.js'),
      import('../../sessions/registry/repair-session.js'),
      import('../../sessions/sessions-error.js'),
      import('../../store/owner-lock.js'),
      import('../../sessions/present/resume-command.js'),
      import('../../sessions/scan/agent-files/agent-name.js'),
      import('../../sessions/present/format-session.js'),
      import('../format/print-warnings.js'),
      import('../../claude/find-claude-binary.js'),
    ]);
    const t = commandMessages(ctx.lang);
    const { registry, warnings } = await requireRegistry(ctx.paths);
    printWarnings(ctx.out, warnings, ctx.lang);
    const resolved = resolveSession(registry, idPrefix);
    const { id } = resolved;
    // An entry an older version made from a file's name (`--dangerously-skip-permissions`): never
    // handed to `claude`, never printed as a command.
    let { entry } = resolved;
    if (!isAgentSessionId(entry.agent, id)) throw new SessionsError('SESSION_NOT_AN_ID', { id });
    const status = entry.status ?? 'active';
    const short = fmt.shortId(id);
    if (status === 'corrupted')
      throw new SessionsError('SESSION_CORRUPTED', { id: short, reason: entry.last_error ?? 'corrupted' });
    if (entry.agent === 'claude' && (status === 'provisioning' || status === 'degraded')) {
      const found = await locateSessionFile(ctx.paths.claudeProjectsDir, id, entry.project_dir);
      if (!found) throw new SessionsError('SESSION_NOT_READY', { id: short, reason: entry.last_error ?? status });
      const owner = await readOwnerLock(ctx.paths.ownerLockFile);
      if (!owner?.alive) {
        const repaired = await repairSession(ctx.paths, id, {
          maxFileSize: ctx.config.scanner.max_file_size,
          now: ctx.now(),
        });
        entry = repaired.entry;
        if (!repaired.resumable)
          throw new SessionsError('SESSION_NOT_READY', {
            id: short,
            reason: entry.last_error ?? entry.status ?? status,
          });
        ctx.out.progress(t('resumeRepaired', { id: short, status: fmt.statusLabel(entry, ctx.lang) }));
      }
    }
    // The program that runs here: `claude` on PATH, else the configured or bundled binary's path.
    const program = claudeProgramFor(ctx.config.general.claude_bin, ctx.env, ctx.paths.userHome);
    const command = resumeCommandLine(entry.cwd, id, entry.agent, program);
    ctx.out.print(t('resumeWill', { command }));
    if (!opts.exec) return 0;
    if (entry.agent !== 'claude')
      throw new SessionsError('RESUME_EXEC_CLAUDE_ONLY', { id: short, agent: fmt.agentLabel(entry.agent), command });
    return execClaude(ctx, id, entry.cwd, short);
  },
};

/**
 * Runs `claude --resume` attached to this terminal. Not through the process runner on purpose:
 * an interactive child must stay in our process group (the terminal's foreground group) with the
 * terminal as its stdio, or it could not read the keyboard.
 */
async function execClaude(ctx: CliContext, id: string, cwd: string, short: string): Promise<number> {
  const [{ spawn }, fs, { AppError }, { expandHome }, { findClaudeBinary }] = await Promise.all([
    import('node:child_process'),
    import('node:fs'),
    import('../../core/app-error.js'),
    import('../../core/expand-home.js'),
    import('../../claude/find-claude-binary.js'),
  ]);
  const t = commandMessages(ctx.lang);
  const dir = expandHome(cwd, ctx.paths.userHome);
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory())
    throw new AppError('RESUME_CWD_MISSING', t('resumeNoCwd', { id: short, cwd: dir }));
  const bin = findClaudeBinary(ctx.config.general.claude_bin, ctx.env, ctx.paths.userHome);
  if (!bin) throw new AppError('CLAUDE_NOT_FOUND', t('resumeNoClaude'));
  return new Promise<number>((resolve, reject) => {
    // One argument: `--resume` takes an optional value, so a separate id could be read as a flag.
    const child = spawn(bin.path, [`--resume=${id}`], { cwd: dir, stdio: 'inherit', env: ctx.env });
    child.on('error', (err) => reject(new AppError('CLAUDE_NOT_FOUND', t('resumeNoClaude'), { cause: err })));
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 130 : 1)));
  });
}
