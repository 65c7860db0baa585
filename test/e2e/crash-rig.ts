// The rig of the crash-and-restart tests of the chat apps: the whole system in child processes
// (fixtures/system-feishu-child.ts, `assembleDaemon` as `cc-linker start` runs it, Feishu beside
// the chat app under test) against the fake Anthropic API, with every child and fake stopped after
// each test and the children's warnings shown when one fails.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, onTestFailed } from 'vitest';
import type { Config } from '../../src/core/config-schema.js';
import { startFakeAnthropic, type FakeAnthropic } from '../fakes/fake-anthropic/fake-anthropic-server.js';
import { startFakeFeishuServer } from '../fakes/fake-feishu/fake-feishu-server.js';
import {
  CASE_TIMEOUT_MS,
  newAppId,
  startChild,
  systemConfig,
  systemRoot,
  type ChildLife,
  type SystemRoot,
} from './system-harness.js';

export interface CrashRig {
  /** Stops `step` after the test (in reverse order of registration). */
  undo(step: () => unknown): void;
  /** A fresh system root and its sdk-mode config with Feishu beside; the test adds its chat app. */
  system(): Promise<{ sys: SystemRoot; config: Config; anth: FakeAnthropic }>;
  /** Writes the children's spec; on failure `chat()` and the children's warnings are printed. */
  spec(sys: SystemRoot, config: Config, chat: () => unknown): string;
  /** Starts one life of the system (killed after the test if still running). */
  start(specFile: string, sys: SystemRoot): ChildLife;
}

/** Call once at the top of a `describe`: registers the clean-up. */
export function crashRig(): CrashRig {
  const lives: ChildLife[] = [];
  const steps: Array<() => unknown> = [];
  afterEach(async () => {
    for (const life of lives)
      if (life.child.exitCode === null && life.child.signalCode === null) life.child.kill('SIGKILL');
    for (const step of steps.reverse()) await step();
    lives.length = 0;
    steps.length = 0;
  }, CASE_TIMEOUT_MS);
  return {
    undo: (step) => steps.push(step),
    async system() {
      const anth = await startFakeAnthropic();
      steps.push(() => anth.close());
      const feishu = await startFakeFeishuServer();
      steps.push(() => feishu.close());
      const sys = systemRoot(anth.url);
      steps.push(() => sys.cleanup());
      const config = systemConfig({
        sys,
        mode: 'sdk',
        feishu: { baseUrl: feishu.baseUrl, appSecret: feishu.appSecret, appId: newAppId() },
      });
      return { sys, config, anth };
    },
    spec(sys, config, chat) {
      const specFile = path.join(sys.root, 'spec.json');
      fs.writeFileSync(specFile, JSON.stringify({ config, env: sys.env, crashOnFinalUpdate: false }));
      onTestFailed(() => {
        console.error(JSON.stringify(chat(), null, 1));
        if (!fs.existsSync(sys.root)) return;
        for (const f of fs.readdirSync(sys.root).filter((n) => n.startsWith('child-'))) {
          const lines = fs
            .readFileSync(path.join(sys.root, f), 'utf8')
            .split('\n')
            .filter((l) => /"level":"(warn|error)"/.test(l));
          console.error(`--- ${f} (warn/error) ---\n${lines.slice(-30).join('\n')}`);
        }
      });
      return specFile;
    },
    start(specFile, sys) {
      const life = startChild(specFile, sys);
      lives.push(life);
      return life;
    },
  };
}
