// `/stop` with the REAL Claude Code (sdk mode, through our runner) against the fake Anthropic API,
// driven through the bridge and an in-memory channel: during a long streamed model answer, and
// during a running Bash `sleep 30`. After the stop no process of the run's group is left (checked
// by pgid and by scanning /proc), the card says Stopped, the record is cancelled, and a restart
// does not call the model again.
import fs from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CardAction, CardReply } from '../../src/bridge/reply-model.js';
import { recoverSpool } from '../../src/bridge/spool/recover-spool.js';
import { silentLogger } from '../../src/core/logger.js';
import { bridgeHarness, OWNER, type BridgeHarness } from '../fakes/bridge-harness.js';
import { isGroupGone } from '../fakes/fake-children.js';
import {
  allGroupsGone,
  CLAUDE_BIN,
  leftovers,
  RUN_TIMEOUT_MS,
  startEngineHarness,
  until,
  type EngineHarness,
} from './claude-harness.js';
import { allowPrompts } from '../helpers/allow-prompts.js';

let e: EngineHarness;
let h: BridgeHarness | undefined;
beforeAll(async () => {
  e = await startEngineHarness();
});
afterAll(async () => e?.close());
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

/** A bridge whose engine is the real Claude Code in sdk mode, its user waiting to start a session in the sandbox. */
async function realBridge(): Promise<BridgeHarness> {
  const b = await bridgeHarness({ bridge: { engine: e.engine('sdk'), lang: 'en' } });
  await b.mapping.setPendingNew(OWNER, { cwd: e.sb.cwd });
  return b;
}

/** Live (not zombie) processes whose command is `name` and whose HOME is the sandbox's. */
function processesNamed(name: string): Array<{ pid: number; pgid: number }> {
  const found: Array<{ pid: number; pgid: number }> = [];
  for (const pid of leftovers(e.sb.home)) {
    try {
      if (fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() !== name) continue;
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      found.push({ pid, pgid: Number(fields[2]) });
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** Whether any live process of group `pgid` is left, by a scan of /proc (not only by signal 0). */
function procHasGroup(pgid: number): boolean {
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgid && !/^[ZX]/.test(fields[0] ?? '')) return true;
    } catch {
      // gone meanwhile
    }
  }
  return false;
}

function pidAlive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2));
  } catch {
    return false;
  }
}

/** After a stop: nothing of the run is left, the card says Stopped, the record is cancelled, a restart calls no model. */
async function expectStopped(b: BridgeHarness, messageId: string, groups: number[]): Promise<CardReply> {
  await b.bridge.whenIdle();
  for (const pgid of groups) {
    expect(isGroupGone(pgid)).toBe(true);
    expect(procHasGroup(pgid)).toBe(false);
  }
  expect(allGroupsGone(e.pgids)).toBe(true);
  expect(leftovers(e.sb.home)).toEqual([]);
  expect(await b.spool.locate(messageId)).toBe('cancelled');
  const card = b.channel.messages.find((m) => m.finished)?.finished as CardReply;
  expect(card).toMatchObject({ status: 'stopped', title: '⏹ Stopped' });
  const calls = e.fake.messageRequests().length;
  await recoverSpool(b.spool, b.bridge.deliveries, silentLogger);
  await b.restart();
  await b.bridge.whenIdle();
  expect(e.fake.messageRequests().length).toBe(calls);
  expect(await b.spool.locate(messageId)).toBe('cancelled');
  return card;
}

describe.skipIf(!CLAUDE_BIN || process.platform !== 'linux')('/stop with the real Claude Code', () => {
  it('during a long streamed answer', { timeout: RUN_TIMEOUT_MS }, async () => {
    h = await realBridge();
    const b = h;
    const m = b.msg('slow: 400');
    await b.bridge.accept(m);
    await until(() => b.channel.messages[0]?.streamStates.some((s) => s.text.includes('tick01')) ?? false, 30_000);
    const groups = [...e.pgids];
    expect(groups.length).toBeGreaterThan(0);
    expect(groups.some((g) => !isGroupGone(g))).toBe(true);
    await b.bridge.accept(b.msg('/stop'));
    const card = await expectStopped(b, m.id, groups);
    const shown = card.sections.map((s) => ('text' in s ? s.text : '')).join('\n');
    expect(shown).toContain('tick00');
    expect(shown).not.toContain('tick19');
    expect(b.channel.transcript()).toContain('⏹ Stopped the running message of your current session.');
  });

  it('during a running Bash `sleep 30` (Stop button)', { timeout: RUN_TIMEOUT_MS }, async () => {
    h = await realBridge();
    const b = h;
    // Claude Code refuses a standalone `sleep 30`; inside a command list it runs (after Allow).
    const m = b.msg('tool: Bash echo started && sleep 30 && echo finished');
    const before = e.pgids.length;
    await b.bridge.accept(m);
    const clicked = new Set<string>();
    await until(() => {
      void allowPrompts(b, clicked);
      return processesNamed('sleep').length > 0;
    }, 30_000);
    const sleeps = processesNamed('sleep');
    const groups = e.pgids.slice(before);
    // Claude Code starts the tool's shell with setsid: its group is not the one our runner started,
    // and the stop must end it too.
    expect(sleeps.some((s) => !groups.includes(s.pgid))).toBe(true);
    expect(groups.length).toBeGreaterThan(0);
    const card = b.channel.messages.find((x) => x.streamButtons?.length);
    const stop = card?.streamButtons?.[0]?.action as CardAction;
    expect(stop).toMatchObject({ type: 'stop', messageId: m.id });
    const r = await b.bridge.handleAction({ channel: 'fake', userId: OWNER, action: stop });
    expect(r.toast?.type).toBe('success');
    await expectStopped(b, m.id, [...groups, ...sleeps.map((s) => s.pgid)]);
    for (const s of sleeps) expect(pidAlive(s.pid)).toBe(false);
  });
});
