type AgentSdk = typeof import('@anthropic-ai/claude-agent-sdk');

let loading: Promise<AgentSdk> | undefined;

/**
 * The Agent SDK module, loaded on first use: it costs ~30 MB that an idle bridge (or a json-mode
 * one) never needs. The promise is kept, so later runs do not pay a dynamic `import()` each time
 * (a module-cache lookup that still costs milliseconds under a loader hook). A failed load is not
 * kept: the next run tries again.
 *
 * @example const { query } = await loadAgentSdk();
 */
export function loadAgentSdk(): Promise<AgentSdk> {
  loading ??= import('@anthropic-ai/claude-agent-sdk').catch((err: unknown) => {
    loading = undefined;
    throw err;
  });
  return loading;
}
