// Shared setup of the engine end-to-end tests: the REAL Claude Code binary bundled by the Agent SDK,
// against the in-repo fake Anthropic API, in a throw-away HOME (test/fakes/fake-anthropic/README.md).
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createEngine } from '../../src/claude/create-engine.js';
import type { ClaudeMode } from '../../src/claude/create-engine.js';
import type { AgentEngine, EngineEvent } from '../../src/engine/engine-types.js';
import { createRegistrySessionRecorder } from '../../src/engine/registry-session-recorder.js';
import type { Config } from '../../src/core/config-schema.js';
import { defaultConfig } from '../../src/core/default-config.js';
import { silentLogger } from '../../src/core/logger.js';
import { resolvePaths, type Paths } from '../../src/core/paths.js';
import type { ChildTracker } from '../../src/process/child-tracker.js';
import { bundledClaudePath } from '../fakes/fake-anthropic/claude-env.js';
import { createClaudeSandbox, type ClaudeSandbox } from '../fakes/fake-anthropic/claude-sandbox.js';
import { startFakeAnthropic, type FakeAnthropic } from '../fakes/fake-anthropic/fake-anthropic-server.js';
import { isGroupGone } from '../fakes/fake-children.js';

/** Per-run limit of a real Claude Code run in these tests. */
export const RUN_TIMEOUT_MS = 60_000;
/** The bundled binary, or null on a platform without it (the tests then skip). */
export const CLAUDE_BIN = bundledClaudePath();

export interface EngineHarness {
  fake: FakeAnthropic;
  sb: ClaudeSandbox;
  paths: Paths;
  /** Process groups the engine started (recorded through its child tracker). */
  pgids: number[];
  /** The child tracker's calls in order: `add <pgid>` at spawn, `remove <pgid>` once the group is gone. */
  trackerLog: string[];
  engine(mode: ClaudeMode, tweak?: (config: Config) => void): AgentEngine;
  /** Ends what the engines built so far keep between turns (warm processes). */
  closeEngines(): Promise<void>;
  close(): Promise<void>;
}

/** Fake API + sandbox; engines built with the sandbox env, the bundled binary and a pgid-recording tracker. */
export async function startEngineHarness(): Promise<EngineHarness> {
  const fake = await startFakeAnthropic();
  const sb = createClaudeSandbox(fake.url);
  const paths = resolvePaths({ ...sb.env, CC_LINKER_HOME: path.join(sb.home, '.cc-linker') });
  const pgids: number[] = [];
  const trackerLog: string[] = [];
  const tracker: ChildTracker = {
    add: (c) => {
      pgids.push(c.pgid);
      trackerLog.push(`add ${c.pgid}`);
    },
    remove: (pgid) => void trackerLog.push(`remove ${pgid}`),
  };
  const engines: AgentEngine[] = [];
  const closeEngines = async (): Promise<void> => {
    await Promise.all(engines.splice(0).map((e) => e.close?.()));
  };
  return {
    fake,
    sb,
    paths,
    pgids,
    trackerLog,
    engine(mode, tweak) {
      const config = defaultConfig();
      config.claude.mode = mode;
      config.general.claude_bin = CLAUDE_BIN ?? '';
      config.runtime.stale_timeout_ms = 30_000;
      config.runtime.hard_timeout_ms = RUN_TIMEOUT_MS;
      tweak?.(config);
      const engine = createEngine(config, {
        paths,
        logger: silentLogger,
        lang: 'en',
        env: sb.env,
        tracker,
        sessionRecorder: createRegistrySessionRecorder(paths, silentLogger),
      });
      engines.push(engine);
      return engine;
    },
    closeEngines,
    async close() {
      await closeEngines();
      await waitNoLeftovers(sb.home, 5000);
      sb.cleanup();
      await fake.close();
    },
  };
}

/** Pids of live processes (not zombies) whose environment has `HOME=<home>` — what a run could leave behind. */
export function leftovers(home: string): number[] {
  if (process.platform !== 'linux') return [];
  const needle = `HOME=${home}\0`;
  const found: number[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      if (/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2))) continue;
      if (fs.readFileSync(`/proc/${name}/environ`, 'utf8').includes(needle)) found.push(Number(name));
    } catch {
      // gone, or not readable
    }
  }
  return found;
}

/** Waits up to `ms` for `leftovers(home)` to be empty; returns what is still there. */
export async function waitNoLeftovers(home: string, ms: number): Promise<number[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const left = leftovers(home);
    if (left.length === 0 || Date.now() >= deadline) return left;
    await sleep(50);
  }
}

/** True when every recorded group is gone. */
export function allGroupsGone(pgids: readonly number[]): boolean {
  return pgids.every((pgid) => isGroupGone(pgid));
}

/** Collects events; `text()` joins the text deltas. */
export function eventLog(): {
  events: EngineEvent[];
  onEvent: (e: EngineEvent) => void;
  text: () => string;
  types: () => string[];
} {
  const events: EngineEvent[] = [];
  return {
    events,
    onEvent: (e) => events.push(e),
    text: () => events.map((e) => (e.type === 'text' ? e.delta : '')).join(''),
    types: () => events.map((e) => e.type),
  };
}

/** Resolves when `predicate` holds (polling), or rejects after `ms`. */
export async function until(predicate: () => boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() >= deadline) throw new Error('condition not reached in time');
    await sleep(25);
  }
}
