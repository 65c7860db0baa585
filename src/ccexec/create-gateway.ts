import type { CcexecProviderConfig, Config } from '../core/config-schema.js';
import { defineMessages, type Language } from '../core/i18n.js';
import type { Logger } from '../core/logger.js';
import type { Paths } from '../core/paths.js';
import { createAuditLog, type AuditLog } from './audit-log.js';
import { createChatSession, type ChatSession } from './chat-session.js';
import { createCliVersionCache, type CliVersionStore } from './cli-version-cache.js';
import { createExecService, type ExecService } from './exec-service.js';
import { GateError } from './gate-error.js';
import type { ToolSpec } from './providers/canonical.js';
import {
  createProvider,
  findProviderPreset,
  toolsModeOf,
  type ProviderConfigInput,
} from './providers/create-provider.js';
import { buildCcExecTool } from './tool-descriptor.js';
import type { CliAvailability } from './tool-loop.js';
import { cliStatusMessage, type CliStatus } from './version-gate.js';

/**
 * The configured ChainlessChain CLI's state, in the user's language with what to do: `available`, or
 * why `cc_exec` cannot run whatever the model (not found, too old, broken).
 */
export type CliAvailabilityInfo =
  | { readonly status: 'available'; readonly version: string; readonly reason: string }
  | { readonly status: 'cli-too-old'; readonly version: string; readonly min: string; readonly reason: string }
  | { readonly status: 'cli-not-found'; readonly reason: string }
  | { readonly status: 'cli-broken'; readonly detail: string; readonly reason: string };

/**
 * Whether the `cc_exec` tool is offered in a chat, and why not, in the user's language (the badge in
 * the chat's header, so the user knows before asking): the CLI's state, or `no-tools-for-model` when
 * the chosen provider is plain chat — `why`: `config` (`tools = false`) or `rejected` (its server
 * refused tools earlier in this process's life). A model without tools is not a broken CLI.
 */
export type ToolAvailability =
  | CliAvailabilityInfo
  | {
      readonly status: 'no-tools-for-model';
      readonly provider: string;
      readonly why: 'config' | 'rejected';
      readonly reason: string;
    };

/** A provider a user may pick: from `[ccexec.providers.<id>]`. */
export interface ProviderInfo {
  readonly id: string;
  /** The preset's display name (`豆包 Doubao (Volcengine Ark)`), else the id. */
  readonly label: string;
  readonly kind: CcexecProviderConfig['kind'];
  readonly model: string;
  /** Whether this provider may call tools (config `tools`, else the preset's default). */
  readonly tools: boolean;
  readonly isDefault: boolean;
}

/** Which provider/model a chat or a check is about; both default from config. */
export interface ChatTarget {
  readonly provider?: string;
  readonly model?: string;
}

/** The cc_exec gateway: the one entry point of the web console, the terminal chat and `/cc`. */
export interface Gateway {
  /**
   * Tool availability for `target` (default provider when omitted). The CLI is checked once
   * (`<cli> --version`) and cached; `recheck` runs it again (after the user installed or upgraded it).
   * Throws the same `GateError`s as `newChat` when the provider cannot be chosen.
   */
  availability(target?: ChatTarget & { readonly recheck?: boolean }): Promise<ToolAvailability>;
  /** The CLI's own state, whatever the model (the status page, `doctor`); checked and cached as above. */
  cli(options?: { readonly recheck?: boolean }): Promise<CliAvailabilityInfo>;
  /**
   * A new conversation. Throws `GateError` `CCEXEC_NO_PROVIDER` / `CCEXEC_UNKNOWN_PROVIDER` when no
   * provider can be chosen, and `ProviderError` (`missing_key`, `config`) when it cannot be built.
   */
  newChat(target?: ChatTarget): ChatSession;
  /** The configured providers, default first. */
  providers(): ProviderInfo[];
  /** Resolves when background writes (the CLI version cache's file) are done; a command awaits it before exiting. */
  flushed(): Promise<void>;
}

/** What the gateway is built from; `fetch` replaces the providers' transport (tests, proxies). */
export interface GatewayOptions {
  readonly config: Config;
  readonly paths: Paths;
  readonly env: NodeJS.ProcessEnv;
  readonly lang: Language;
  readonly logger: Logger;
  readonly fetch?: typeof fetch;
  readonly now?: () => number;
  /**
   * Where probed CLI versions outlive the process (`ask`: a file under `~/.cc-linker`); without it
   * they are kept in memory for the gateway's life (the daemon).
   */
  readonly versionStore?: CliVersionStore;
}

const messages = defineMessages({
  zh: {
    noTools:
      '🔧 当前模型（{provider}）不支持工具调用，只能普通对话；切换到 OpenAI / Doubao / Anthropic 模型（或在配置里设 tools = true）即可查询本地数据。',
    noToolsRejected:
      '🔧 当前模型（{provider}）的服务拒绝了工具调用，已改为普通对话，不能查询本地数据；这与 ChainlessChain CLI 无关。请换用 OpenAI / Doubao / Anthropic 模型，或在配置里设 tools = false 不再尝试。',
    noProvider:
      '没有可用的模型服务：请在配置 [ccexec.providers.<名字>] 中添加一个，并设置 [ccexec] default_provider，或用 --provider 指定。',
    unknownProvider: '未知的模型服务 "{id}"。已配置：{known}。',
  },
  en: {
    noTools:
      '🔧 The current model ({provider}) cannot call tools, so this is plain chat; switch to an OpenAI / Doubao / Anthropic model (or set tools = true in the config) to query local data.',
    noToolsRejected:
      '🔧 The service of the current model ({provider}) refused tool calls, so this is plain chat and local data cannot be queried; the ChainlessChain CLI is not at fault. Switch to an OpenAI / Doubao / Anthropic model, or set tools = false in the config to stop trying.',
    noProvider:
      'No model service is available: add one under [ccexec.providers.<name>] in the config and set [ccexec] default_provider, or pass --provider.',
    unknownProvider: 'Unknown model service "{id}". Configured: {known}.',
  },
});

/**
 * Builds the gateway from config: the exec service (`[ccexec] cli`, `cwd`, `timeout_ms`,
 * `env_allow`), the audit log (`paths.auditFile`), the generated `cc_exec` tool, and providers from
 * `[ccexec.providers.<id>]` (a preset name such as `openai` works without a table when `model` is given).
 *
 * @example
 *   const gw = createGateway({ config, paths, env: process.env, lang: 'zh', logger });
 *   const chat = gw.newChat({ provider: 'openai' });
 *   const result = await chat.run('列一下我最近的笔记', { onEvent: render }); // result.state === 'COMPLETE'
 */
export function createGateway(options: GatewayOptions): Gateway {
  const { config, env, lang } = options;
  const ccexec = config.ccexec;
  const logger = options.logger.child('ccexec');
  const versionCache = createCliVersionCache({
    ...(options.versionStore ? { store: options.versionStore } : {}),
    onError: (err) =>
      logger.warn('could not save the CLI version cache', { error: err instanceof Error ? err.message : String(err) }),
  });
  const exec: ExecService = createExecService({
    cli: ccexec.cli,
    cwd: ccexec.cwd,
    timeoutMs: ccexec.timeout_ms,
    env,
    envAllow: ccexec.env_allow,
    envDeny: Object.values(ccexec.providers)
      .map((p) => p.api_key_env)
      .filter((n) => n.length > 0),
    versionCache,
  });
  const audit: AuditLog = createAuditLog(options.paths.auditFile);
  const tool: ToolSpec = buildCcExecTool();
  const t = messages(lang);
  let cliCheck: { readonly key: string; readonly status: Promise<CliStatus> } | null = null;

  // Checked once per CLI fingerprint: a CLI upgraded, installed or removed in place is checked again.
  const checkCli = (recheck = false): Promise<CliStatus> => {
    const key = JSON.stringify(exec.fingerprint());
    if (!cliCheck || recheck || cliCheck.key !== key) {
      const status = exec.checkVersion(undefined, { recheck }).then((s) => {
        if (s.status !== 'available') logger.warn('cc_exec tool is off', { status: s.status, cli: exec.label });
        return s;
      });
      cliCheck = { key, status };
    }
    return cliCheck.status;
  };

  const configured = (): string[] => Object.keys(ccexec.providers);

  const resolve = (target: ChatTarget = {}): { id: string; cfg: ProviderConfigInput } => {
    const id =
      target.provider?.trim() || ccexec.default_provider || (configured().length === 1 ? configured()[0] : undefined);
    if (!id) throw new GateError('CCEXEC_NO_PROVIDER', t('noProvider'));
    const table = ccexec.providers[id];
    const preset = table ? undefined : findProviderPreset(id);
    if (!table && !preset)
      throw new GateError(
        'CCEXEC_UNKNOWN_PROVIDER',
        t('unknownProvider', { id, known: configured().join(', ') || '-' }),
      );
    const base: ProviderConfigInput = table ?? { kind: preset?.kind ?? 'openai-compatible' };
    return { id, cfg: target.model ? { ...base, model: target.model } : base };
  };

  // Providers whose server refused tools, for the gateway's (the daemon's) life: their chats start plain.
  const rejected = new Set<string>();
  const rejectionKey = (id: string, cfg: ProviderConfigInput): string =>
    JSON.stringify([id, cfg.model ?? '', cfg.base_url ?? '']);
  const toolsFor = (id: string, cfg: ProviderConfigInput): boolean =>
    toolsModeOf(cfg) !== 'off' && !rejected.has(rejectionKey(id, cfg));

  const describe = (status: CliStatus): CliAvailabilityInfo => {
    const reason = cliStatusMessage(status, lang, exec.label);
    switch (status.status) {
      case 'available':
        return { status: 'available', version: status.version, reason };
      case 'cli-too-old':
        return { status: 'cli-too-old', version: status.version, min: status.min, reason };
      case 'cli-not-found':
        return { status: 'cli-not-found', reason };
      case 'cli-broken':
        return { status: 'cli-broken', detail: status.detail, reason };
    }
  };

  return {
    async availability(target = {}) {
      const status = await checkCli(target.recheck === true);
      const { id, cfg } = resolve(target);
      if (toolsModeOf(cfg) === 'off')
        return { status: 'no-tools-for-model', provider: id, why: 'config', reason: t('noTools', { provider: id }) };
      if (!toolsFor(id, cfg))
        return {
          status: 'no-tools-for-model',
          provider: id,
          why: 'rejected',
          reason: t('noToolsRejected', { provider: id }),
        };
      return describe(status);
    },

    cli: async (opts = {}) => describe(await checkCli(opts.recheck === true)),

    newChat(target = {}) {
      const { id, cfg } = resolve(target);
      const key = rejectionKey(id, cfg);
      const provider = createProvider(id, rejected.has(key) ? { ...cfg, tools: false } : cfg, env, {
        language: lang,
        ...(options.fetch ? { fetch: options.fetch } : {}),
      });
      void checkCli(); // start the one-time check now; the first question awaits it
      // Load the provider's SDK meanwhile (a cold CLI check or the caller's own start-up hides it).
      void provider.prepare?.().catch(() => undefined);
      return createChatSession({
        provider,
        exec: (argv, signal) => exec.exec(argv, signal),
        tool,
        lang,
        timeoutMs: ccexec.timeout_ms,
        onToolsRejected: () => {
          rejected.add(key);
          logger.warn('the model service refused tools; plain chat from now on', { provider: id });
        },
        ...(options.now ? { now: options.now } : {}),
        cli: async (): Promise<CliAvailability> => {
          const status = await checkCli();
          return status.status === 'available'
            ? { available: true }
            : { available: false, reason: cliStatusMessage(status, lang, exec.label) };
        },
        onToolCall: (record, session) =>
          audit
            .append(record, { provider: provider.id, model: provider.model, chat: session.id })
            .catch((err: unknown) =>
              logger.warn('could not append to the cc_exec audit log', {
                file: audit.file,
                error: err instanceof Error ? err.message : String(err),
              }),
            ),
      });
    },

    flushed: () => versionCache.flushed(),

    providers() {
      const entries = Object.entries(ccexec.providers).map(([id, cfg]): ProviderInfo => ({
        id,
        label: findProviderPreset(id)?.label ?? id,
        kind: cfg.kind,
        model: cfg.model,
        tools: toolsFor(id, cfg),
        isDefault: id === ccexec.default_provider,
      }));
      return entries.sort((a, b) => Number(b.isDefault) - Number(a.isDefault));
    },
  };
}
