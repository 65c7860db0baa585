import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { BridgeStatus, CommandContext } from '../../src/bridge/commands/command-context.js';
import { ListSnapshots } from '../../src/bridge/commands/list-snapshot.js';
import { UserMapping } from '../../src/bridge/mapping/user-mapping.js';
import { PendingPrompts } from '../../src/bridge/prompts/pending-prompts.js';
import { defaultConfig } from '../../src/core/default-config.js';
import { resolvePaths } from '../../src/core/paths.js';
import { FakeSessionDirectory } from './fake-session-directory.js';

/** A command context over a throw-away home: real mapping and snapshot files, in-memory sessions. */
export interface CommandFixture {
  /** The fake user's home (`~`): contains Git/{alpha,beta,gamma,.hidden}, Workspace/, Downloads/, notes.txt. */
  home: string;
  ctx: CommandContext;
  sessions: FakeSessionDirectory;
  /** Moves the injected clock (mapping, snapshots and `ctx.now`). */
  setNow(iso: string): void;
  cleanup(): Promise<void>;
}

/** Creates the fixture; `overrides` replace context fields (lang, models, ccexec, status …). */
export async function commandFixture(overrides: Partial<CommandContext> = {}): Promise<CommandFixture> {
  const home = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'ccl-cmd-')));
  for (const d of ['Git/alpha/src', 'Git/beta', 'Git/gamma', 'Git/.hidden', 'Workspace', 'Downloads/x'])
    await fs.mkdir(path.join(home, d), { recursive: true });
  await fs.writeFile(path.join(home, 'notes.txt'), 'x');
  const paths = resolvePaths({
    HOME: home,
    CC_LINKER_HOME: path.join(home, '.cc-linker'),
    CLAUDE_CONFIG_DIR: path.join(home, '.claude'),
  });
  let now = new Date('2026-05-05T10:30:00.000Z');
  const clock = () => now;
  const config = defaultConfig();
  const sessions = new FakeSessionDirectory();
  const status: BridgeStatus = {
    pending: 2,
    processing: 1,
    failed: 0,
    running: 1,
    channels: [{ id: 'feishu', connected: true }],
    pendingPrompts: 0,
  };
  const ctx: CommandContext = {
    userId: 'ou_owner',
    messageId: 'feishu:om_1',
    lang: 'zh',
    now,
    config,
    paths,
    mapping: new UserMapping(paths.userMappingFile, { now: clock }),
    listSnapshots: new ListSnapshots(path.join(paths.runtimeDir, 'list-snapshots.json'), {
      ttlMs: config.queue.list_snapshot_ttl_minutes * 60_000,
      now: clock,
    }),
    sessions,
    status: async () => status,
    prompts: new PendingPrompts({ timeoutMs: config.sdk.timeout_ms, lang: 'zh' }),
    models: async () => [],
    ...overrides,
  };
  return {
    home,
    ctx,
    sessions,
    setNow(iso) {
      now = new Date(iso);
      ctx.now = now;
    },
    cleanup: () => fs.rm(home, { recursive: true, force: true }),
  };
}
