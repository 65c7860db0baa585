import type { BridgeStatus } from '../../../bridge/commands/command-context.js';
import type { ConsoleCliStatus, ConsoleGateway, ConsoleToolAvailability } from './console-gateway.js';

/**
 * The status view: bridge queue and channels (Feishu connected or not), the ChainlessChain CLI's own
 * state (`cli`: can it run, and if not what to do) and, apart from it, whether the default chat model
 * may call tools (`model`: `no-tools-for-model` or `no-provider` is the model's business, not a
 * broken CLI).
 */
export async function statusBody(ctx: {
  bridge: { status(): Promise<BridgeStatus> } | null;
  gateway: Pick<ConsoleGateway, 'cli' | 'availability'>;
}): Promise<{ bridge: BridgeStatus | null; cli: ConsoleCliStatus | null; model: ConsoleToolAvailability | null }> {
  const [bridge, cli, model] = await Promise.all([
    ctx.bridge ? ctx.bridge.status() : Promise.resolve(null),
    ctx.gateway.cli().catch(() => null),
    ctx.gateway.availability().catch(() => null),
  ]);
  return { bridge, cli, model };
}
