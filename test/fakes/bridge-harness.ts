import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Bridge, type BridgeOptions } from '../../src/bridge/bridge.js';
import type { InboundMessage } from '../../src/bridge/inbound-message.js';
import { ListSnapshots } from '../../src/bridge/commands/list-snapshot.js';
import { Spool } from '../../src/bridge/spool/spool.js';
import { UserMapping } from '../../src/bridge/mapping/user-mapping.js';
import type { Config } from '../../src/core/config-schema.js';
import { defaultConfig } from '../../src/core/default-config.js';
import { silentLogger } from '../../src/core/logger.js';
import { resolvePaths, type Paths } from '../../src/core/paths.js';
import { FakeChannel } from './fake-channel.js';
import { FakeEngine } from './fake-engine.js';
import { FakeSessionDirectory } from './fake-session-directory.js';

export const OWNER = 'ou_owner';

/** A bridge over a throw-away home with a fake engine and an in-memory channel. */
export interface BridgeHarness {
  home: string;
  paths: Paths;
  config: Config;
  bridge: Bridge;
  engine: FakeEngine;
  channel: FakeChannel;
  spool: Spool;
  mapping: UserMapping;
  sessions: FakeSessionDirectory;
  /** Builds an inbound text message from the owner (ids are sequential unless given). */
  msg(text: string, over?: Partial<InboundMessage>): InboundMessage;
  /** Stops the bridge and builds a fresh one over the same files (a restart without a crash). */
  restart(): Promise<Bridge>;
  cleanup(): Promise<void>;
}

export async function bridgeHarness(
  options: { configure?: (c: Config) => void; bridge?: Partial<BridgeOptions> } = {},
): Promise<BridgeHarness> {
  const home = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'ccl-bridge-')));
  for (const d of ['Git/alpha', 'Git/beta', 'Workspace']) await fs.mkdir(path.join(home, d), { recursive: true });
  const paths = resolvePaths({
    HOME: home,
    CC_LINKER_HOME: path.join(home, '.cc-linker'),
    CLAUDE_CONFIG_DIR: path.join(home, '.claude'),
  });
  const config = defaultConfig();
  config.security.allowed_roots = [path.join(home, 'Git'), path.join(home, 'Workspace')];
  config.security.denied_roots = [home, '/'];
  config.queue.spool_dir = path.join(paths.home, 'spool');
  config.feishu_bot.owner_open_id = OWNER;
  options.configure?.(config);
  const engine = new FakeEngine();
  const channel = new FakeChannel('fake');
  const sessions = new FakeSessionDirectory();
  let n = 0;
  const build = () => {
    const spool = new Spool(config.queue.spool_dir);
    const mapping = new UserMapping(paths.userMappingFile);
    const bridge = new Bridge({
      config,
      paths,
      lang: 'zh',
      logger: silentLogger,
      spool,
      engine,
      mapping,
      listSnapshots: new ListSnapshots(path.join(paths.runtimeDir, 'list-snapshots.json'), { ttlMs: 600_000 }),
      sessions,
      ownerPolicy: async (_c, userId) => (userId === OWNER ? 'owner' : 'stranger'),
      retryBaseMs: 5,
      heartbeatMs: 50,
      ...options.bridge,
    });
    bridge.addChannel(channel);
    return { spool, mapping, bridge };
  };
  let current = build();
  await current.bridge.start();
  const h: BridgeHarness = {
    home,
    paths,
    config,
    engine,
    channel,
    sessions,
    get bridge() {
      return current.bridge;
    },
    get spool() {
      return current.spool;
    },
    get mapping() {
      return current.mapping;
    },
    msg(text, over = {}) {
      n += 1;
      const pid = over.platformMessageId ?? `om_${n}`;
      return {
        id: `fake:${pid}`,
        channel: 'fake',
        platformMessageId: pid,
        userId: OWNER,
        chatId: 'oc_1',
        chatType: 'p2p',
        text,
        images: [],
        receivedAt: new Date().toISOString(),
        ...over,
      };
    },
    async restart() {
      await current.bridge.stop(1000);
      current = build();
      await current.bridge.start();
      return current.bridge;
    },
    async cleanup() {
      await current.bridge.stop(1000);
      await fs.rm(home, { recursive: true, force: true });
    },
  };
  return h;
}
