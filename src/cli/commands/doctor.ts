import type { CliContext } from '../context/cli-context.js';
import type { CommandSpec } from './command-spec.js';
import { redact } from '../../core/redact.js';
import { commandMessages } from './command-messages.js';
import type { DoctorCheck as Check } from './doctor-check.js';

const REQUIRED_NODE = '20.19';
const ICON = { ok: '✅', warn: '⚠️ ', fail: '❌', info: '➖' } as const;

/**
 * `cc-linker doctor`: checks what cc-linker needs — the config (a config that cannot be loaded is a
 * failed check, and the other checks run on the defaults),
 * `config.toml` readable or writable by others (a failed check that says `chmod 600 <file>`),
 * Node's version, a `claude` binary and its version, writable state directories, Claude's session
 * directory, Feishu credentials (present or not; never printed), Telegram when enabled (token and
 * owner set, the token accepted by `getMe`), and the hook; then every ACP
 * agent (built-in or configured): its command found and running. An agent that is not installed is
 * information, not a failure — unless it is `agents.default`. The session registry exists (else a
 * failure that says `cc-linker init`: every session command needs it). The AI chat: each configured
 * model service's key variable is set and its table complete, and the ChainlessChain CLI runs
 * (`doctor-chat-checks.ts`). Exits 1 when a check fails; warnings do not fail, and "all checks
 * passed" is printed only when none failed.
 */
export const doctorCommand: CommandSpec = {
  name: 'doctor',
  description: 'Check the installation: config, Node.js, claude, directories, credentials',
  options: [{ flags: '--json', description: 'print the checks as JSON' }],
  survivesBadConfig: true,
  action: async (ctx, opts: { json?: boolean }) => {
    const checks = await runChecks(ctx);
    const failed = checks.filter((c) => c.level === 'fail').length;
    if (opts.json) {
      ctx.out.json({ ok: failed === 0, checks });
      return failed === 0 ? 0 : 1;
    }
    const t = commandMessages(ctx.lang);
    const lines = [
      t('doctorTitle'),
      '─'.repeat(36),
      ...checks.map((c) => `${ICON[c.level]} ${c.text}`),
      '',
      failed === 0 ? t('doctorOk') : t('doctorFailed', { n: failed }),
    ];
    ctx.out.print(lines.join('\n'));
    return failed === 0 ? 0 : 1;
  },
};

async function runChecks(ctx: CliContext): Promise<Check[]> {
  const [
    fs,
    path,
    { runProcess },
    { findClaudeBinary },
    { hookStatus },
    { hookTargetFor },
    { tildify },
    { ensurePrivateDir },
    { configFileExposure },
  ] = await Promise.all([
    import('node:fs'),
    import('node:path'),
    import('../../process/run-process.js'),
    import('../../claude/find-claude-binary.js'),
    import('../../sessions/hook/claude-hook.js'),
    import('./hook-target.js'),
    import('../../core/tildify.js'),
    import('../../store/private-dir.js'),
    import('../../core/config-file-mode.js'),
  ]);
  const t = commandMessages(ctx.lang);
  const home = ctx.paths.userHome;
  const show = (p: string) => tildify(p, home);
  const checks: Check[] = [];

  const configExists = fs.existsSync(ctx.paths.configFile);
  if (ctx.configError) {
    // Every problem on its own line under the check; the other checks ran on the defaults.
    const problems = redact(ctx.configError.userMessage)
      .split('\n')
      .map((line) => `\n   ${line}`)
      .join('');
    checks.push({ name: 'config', level: 'fail', text: `${t('doctorConfigInvalid')}${problems}` });
  } else {
    checks.push({
      name: 'config',
      level: ctx.warnings.length > 0 ? 'warn' : 'ok',
      text: !configExists
        ? t('doctorConfigDefault', { file: show(ctx.paths.configFile) })
        : ctx.warnings.length > 0
          ? t('doctorConfigWarnings', { file: show(ctx.paths.configFile), n: ctx.warnings.length })
          : t('doctorConfig', { file: show(ctx.paths.configFile) }),
    });
  }

  // The file holds secrets: readable by others is a failed check, with the fix (`chmod 600 …`).
  const exposed = configFileExposure(ctx.paths.configFile, show(ctx.paths.configFile));
  if (exposed) checks.push({ name: 'config_mode', level: 'fail', text: exposed.text[ctx.lang] });

  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  const [reqMajor = 0, reqMinor = 0] = REQUIRED_NODE.split('.').map(Number);
  const nodeOk = major > reqMajor || (major === reqMajor && minor >= reqMinor);
  checks.push({
    name: 'node',
    level: nodeOk ? 'ok' : 'fail',
    text: t('doctorNode', { version: process.version, required: REQUIRED_NODE }),
  });

  const bin = findClaudeBinary(ctx.config.general.claude_bin, ctx.env, ctx.paths.userHome);
  if (!bin) checks.push({ name: 'claude', level: 'fail', text: t('doctorClaudeMissing') });
  else {
    // The very environment the engine gives Claude Code: never cc-linker's own secrets or the cc_exec
    // keys, cloud credentials only for the selected provider, plus claude.env_allow.
    const { claudeEnvFor } = await import('../../claude/claude-env.js');
    const r = await runProcess([bin.path, '--version'], {
      hardTimeoutMs: 10_000,
      env: claudeEnvFor(ctx.config, ctx.env),
    });
    // `claude --version` prints `2.1.332 (Claude Code)`; the line already says "Claude Code".
    const version = (r.stdout.trim().split('\n')[0] ?? '').replace(/\s*\(Claude Code\)$/, '');
    if (r.reason === 'exit' && r.exitCode === 0 && version)
      checks.push({
        name: 'claude',
        level: 'ok',
        text: t(bin.source === 'sdk' ? 'doctorClaudeBundled' : 'doctorClaude', { bin: show(bin.path), version }),
      });
    else
      checks.push({
        name: 'claude',
        level: 'fail',
        text: t('doctorClaudeBroken', {
          bin: show(bin.path),
          reason: r.spawnError?.message ?? `${r.reason} ${r.exitCode ?? ''}`.trim(),
        }),
      });
  }

  checks.push(...(await agentChecks(ctx)));

  // Every session command (`list`, `show`, `resume` …) needs the registry that `init` creates.
  const registry = show(ctx.paths.registryFile);
  checks.push(
    fs.existsSync(ctx.paths.registryFile)
      ? { name: 'registry', level: 'ok', text: t('doctorRegistry', { file: registry }) }
      : { name: 'registry', level: 'fail', text: t('doctorRegistryMissing', { file: registry }) },
  );

  for (const dir of [ctx.paths.home, ctx.paths.runtimeDir]) {
    try {
      await ensurePrivateDir(dir);
      const probe = path.join(dir, `.doctor-${process.pid}`);
      await fs.promises.writeFile(probe, '', { mode: 0o600 });
      await fs.promises.rm(probe, { force: true });
      checks.push({ name: 'writable', level: 'ok', text: t('doctorWritable', { dir: show(dir) }) });
    } catch (err) {
      const reason = (err as NodeJS.ErrnoException).code ?? (err instanceof Error ? err.message : String(err));
      checks.push({ name: 'writable', level: 'fail', text: t('doctorNotWritable', { dir: show(dir), reason }) });
    }
  }

  const projects = ctx.paths.claudeProjectsDir;
  checks.push(
    fs.existsSync(projects)
      ? { name: 'projects', level: 'ok', text: t('doctorProjects', { dir: show(projects) }) }
      : { name: 'projects', level: 'warn', text: t('doctorProjectsMissing', { dir: show(projects) }) },
  );
  const { filesNotNamedBySessionId } = await import('../../sessions/scan/scan-claude-projects.js');
  const notIds = filesNotNamedBySessionId(projects).length;
  if (notIds > 0)
    checks.push({
      name: 'projects',
      level: 'warn',
      text: t('doctorProjectsSkipped', { dir: show(projects), n: notIds }),
    });

  const feishu = Boolean(ctx.config.feishu_bot.app_id && ctx.config.feishu_bot.app_secret);
  checks.push({
    name: 'feishu',
    level: feishu ? 'ok' : 'warn',
    text: t(feishu ? 'doctorFeishu' : 'doctorFeishuMissing'),
  });

  const { telegramChecks } = await import('./doctor-telegram.js');
  checks.push(...(await telegramChecks(ctx)));
  const { dingtalkChecks } = await import('./doctor-dingtalk.js');
  checks.push(...(await dingtalkChecks(ctx)));

  const { slackChecks } = await import('./doctor-slack.js');
  checks.push(...(await slackChecks(ctx)));
  const { voiceChecks } = await import('./doctor-voice.js');
  checks.push(...(await voiceChecks(ctx)));

  const hook = await hookStatus(hookTargetFor(ctx));
  checks.push({ name: 'hook', level: hook.state === 'installed' ? 'ok' : 'warn', text: t(`doctorHook_${hook.state}`) });
  const { chatChecks } = await import('./doctor-chat-checks.js');
  checks.push(...(await chatChecks(ctx)));
  return checks;
}

/** How long an agent may take to print its version (Qwen Code and Gemini CLI start Node first). */
const AGENT_PROBE_MS = 15_000;

/**
 * One check per ACP agent, run side by side: its command resolved as the engine resolves it, then
 * `<program> --version` (else `--help`: codex-acp has no version flag) with the environment the
 * agent gets. Not installed → information with the install line; for `agents.default`, a failure.
 */
async function agentChecks(ctx: CliContext): Promise<Check[]> {
  const [{ agentProfiles }, { resolveAgentCommand }, { agentEnvFor }, { AgentError }, { runProcess }, { tildify }] =
    await Promise.all([
      import('../../agents/agent-profiles.js'),
      import('../../agents/resolve-agent-command.js'),
      import('../../agents/agent-env.js'),
      import('../../agents/agent-error.js'),
      import('../../process/run-process.js'),
      import('../../core/tildify.js'),
    ]);
  const t = commandMessages(ctx.lang);
  const show = (p: string) => tildify(p, ctx.paths.userHome);
  return Promise.all(
    agentProfiles(ctx.config).map(async (profile): Promise<Check> => {
      const isDefault = ctx.config.agents.default === profile.name;
      const base = { name: 'agent', agent: profile.name };
      const params = { label: profile.label, agent: profile.name, default: isDefault ? t('doctorAgentDefault') : '' };
      const env = agentEnvFor(profile, ctx.env, ctx.config);
      let argv: string[];
      try {
        argv = resolveAgentCommand(profile, env, ctx.paths.userHome);
      } catch (err) {
        if (!(err instanceof AgentError)) throw err;
        const text = profile.install
          ? t('doctorAgentMissing', { ...params, install: profile.install })
          : t('doctorAgentMissingConfigured', { ...params, command: profile.command[0] ?? '' });
        return { ...base, level: isDefault ? 'fail' : profile.builtin ? 'info' : 'warn', text };
      }
      const program = argv[0] as string;
      const probe = (flag: string) => runProcess([program, flag], { env, hardTimeoutMs: AGENT_PROBE_MS });
      let r = await probe('--version');
      const version = r.reason === 'exit' && r.exitCode === 0 ? firstLine(r.stdout) : '';
      if (version) return { ...base, level: 'ok', text: t('doctorAgent', { ...params, bin: show(program), version }) };
      if (!(r.reason === 'exit' && r.exitCode === 0)) r = await probe('--help');
      if (r.reason === 'exit' && r.exitCode === 0)
        return { ...base, level: 'ok', text: t('doctorAgentRuns', { ...params, bin: show(program) }) };
      const reason = redact(r.spawnError?.message ?? `${r.reason} ${r.exitCode ?? r.signal ?? ''}`.trim());
      return {
        ...base,
        level: isDefault ? 'fail' : 'warn',
        text: t('doctorAgentBroken', { ...params, bin: show(program), reason }),
      };
    }),
  );
}

/** The first line of a version printout, when it looks like one (short, with a digit). */
function firstLine(text: string): string {
  const line = (text.trim().split('\n')[0] ?? '').trim();
  return line.length > 0 && line.length <= 80 && /\d/.test(line) ? line : '';
}
