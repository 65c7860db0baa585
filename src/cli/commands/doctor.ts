import type { CliContext } from '../context/cli-context.js';
import type { CommandSpec } from './command-spec.js';
import { redact } from '../../core/redact.js';
import { commandMessages } from './command-messages.js';

/** One doctor check: ok, a warning (works, but limited) or a failure. */
interface Check {
  name: string;
  level: 'ok' | 'warn' | 'fail';
  text: string;
}

const REQUIRED_NODE = '20.19';
const ICON = { ok: '✅', warn: '⚠️ ', fail: '❌' } as const;

/**
 * `cc-linker doctor`: checks what cc-linker needs — the config (a config that cannot be loaded is a
 * failed check, and the other checks run on the defaults),
 * Node's version, a `claude` binary and its version, writable state directories, Claude's session
 * directory, Feishu credentials (present or not; never printed), and the hook. Exits 1 when a
 * check fails; warnings do not fail.
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
  ] = await Promise.all([
    import('node:fs'),
    import('node:path'),
    import('../../process/run-process.js'),
    import('../../claude/find-claude-binary.js'),
    import('../../sessions/hook/claude-hook.js'),
    import('./hook-target.js'),
    import('../../core/tildify.js'),
    import('../../store/private-dir.js'),
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

  const feishu = Boolean(ctx.config.feishu_bot.app_id && ctx.config.feishu_bot.app_secret);
  checks.push({
    name: 'feishu',
    level: feishu ? 'ok' : 'warn',
    text: t(feishu ? 'doctorFeishu' : 'doctorFeishuMissing'),
  });

  const hook = await hookStatus(hookTargetFor(ctx));
  checks.push({ name: 'hook', level: hook.state === 'installed' ? 'ok' : 'warn', text: t(`doctorHook_${hook.state}`) });
  return checks;
}
