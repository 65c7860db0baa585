// The warm-session bench's daemon figure: a real `cc-linker start` (dist build, temp HOME, Feishu
// pointing at the fake Feishu, Claude Code at the fake Anthropic API) that was sent three `/new`
// messages in three directories, so it holds three warm Claude Code children; then the RSS of the
// daemon itself and of each child's process group, sampled from /proc.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { OWNER } from '../test/fakes/bridge-harness.js';
import { claudeTestEnv } from '../test/fakes/fake-anthropic/claude-env.js';
import { textMessageEvent, type FakeFeishu } from '../test/fakes/fake-feishu/fake-feishu-server.js';
import { groupRssMb, rssMb } from './group-rss.js';
import { percentile, round, type BenchFigure } from './report.js';

const CLI = path.resolve(import.meta.dirname, '..', 'dist', 'cli', 'launcher', 'cc-linker.js');
const SESSIONS = 3;
const SAMPLES = 3;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Children of `ppid` (their pids), from /proc. */
function childrenOf(ppid: number): number[] {
  const out: number[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === ppid) out.push(Number(name));
    } catch {
      /* exited while listing */
    }
  }
  return out;
}

const isClaude = (pid: number): boolean => {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('claude');
  } catch {
    return false;
  }
};

async function until(what: string, ok: () => boolean, daemon: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!ok()) {
    if (daemon.exitCode !== null || Date.now() > deadline)
      throw new Error(`${what}: not reached (daemon exit ${daemon.exitCode}):\n${log().slice(-3000)}`);
    await sleep(100);
  }
}

/**
 * The daemon's RSS and its warm children's, holding SESSIONS warm sessions; a figure with a null
 * value (and why) when the build is missing.
 */
export async function warmDaemonRss(o: { fake: FakeFeishu; anthropicUrl: string }): Promise<BenchFigure[]> {
  const figure = `RSS of a \`cc-linker start\` daemon holding ${SESSIONS} warm sessions (daemon + its Claude Code children)`;
  if (!fs.existsSync(CLI))
    return [
      {
        figure,
        value: null,
        unit: 'MB',
        goal: null,
        baseline: null,
        met: null,
        note: `not measured: ${path.relative(process.cwd(), CLI)} missing (run npm run build)`,
      },
    ];
  const { fake } = o;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-bench-warm-'));
  let daemon: ChildProcess | undefined;
  try {
    const home = fs.realpathSync(tmp);
    for (let i = 1; i <= SESSIONS; i += 1) fs.mkdirSync(path.join(home, 'Git', `p${i}`), { recursive: true });
    const ready = path.join(home, 'ready.json');
    const before = fake.connectionsOpened;
    const env: NodeJS.ProcessEnv = {
      ...claudeTestEnv({ home, baseUrl: o.anthropicUrl }),
      LANG: 'C',
      CC_LINKER_HOME: path.join(home, '.cc-linker'),
      CLAUDE_CONFIG_DIR: path.join(home, '.claude'),
      CC_LINKER_FEISHU_APP_ID: `cli_${randomBytes(8).toString('hex')}`,
      CC_LINKER_FEISHU_APP_SECRET: fake.appSecret,
      CC_LINKER_FEISHU_DOMAIN: fake.baseUrl,
      CC_LINKER_FEISHU_OWNER_OPEN_ID: OWNER,
      CC_LINKER_DAEMON_READY: ready,
    };
    const started = spawn(process.execPath, [CLI, 'start', '--port', '0'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    daemon = started;
    let output = '';
    started.stdout?.on('data', (d: Buffer) => (output += d.toString()));
    started.stderr?.on('data', (d: Buffer) => (output += d.toString()));
    const log = () => output;
    await until('daemon ready', () => fs.existsSync(ready) && fake.connectionsOpened > before, started, log);
    const pid = started.pid as number;
    const idle = rssMb(pid);

    for (let i = 1; i <= SESSIONS; i += 1) {
      const marker = `daemon-warm-${i}`;
      const event = textMessageEvent({ openId: OWNER, text: `/new ~/Git/p${i} -- echo: ${marker}` });
      const omId = (event.event.message as { message_id: string }).message_id;
      const { ack } = await fake.pushEvent(event);
      if (ack.code !== 200) throw new Error(`event not acked: ${JSON.stringify(ack)}`);
      // The answer in the reply's card and the card made final (its `update`): the turn is over, so
      // the next `/new` is not queued behind it.
      const cardOf = () =>
        (fake.sent.find((m) => m.parent_id === omId)?.content as { data?: { card_id?: string } } | undefined)?.data
          ?.card_id;
      const finished = () => {
        const ops = fake.cardkit.filter((op) => op.card_id === cardOf());
        return ops.some((op) => (op.content ?? '').includes(marker)) && ops.some((op) => op.op === 'update');
      };
      await until(`answer ${marker} in a finished card`, finished, started, log);
      await until(`warm child ${i}`, () => childrenOf(pid).filter(isClaude).length >= i, started, log);
    }
    await sleep(1500); // the last turn's result is out; its child is kept for the next message
    const daemonMb: number[] = [];
    const childrenMb: number[] = [];
    let groups = 0;
    for (let s = 0; s < SAMPLES; s += 1) {
      const kids = childrenOf(pid).filter(isClaude);
      groups = kids.length;
      daemonMb.push(rssMb(pid) ?? Number.NaN);
      // Each child was spawned as the leader of its own process group.
      childrenMb.push(kids.reduce((sum, k) => sum + groupRssMb(k).mb, 0));
      await sleep(1000);
    }
    const d = percentile(daemonMb, 50);
    const c = percentile(childrenMb, 50);
    return [
      {
        figure,
        value: round(d + c),
        unit: 'MB',
        goal: null,
        baseline: null,
        met: null,
        note: `median of ${SAMPLES} samples 1 s apart: daemon ${round(d)} MB (idle before the messages ${round(idle ?? Number.NaN)} MB) + ${groups} warm child groups ${round(c)} MB (${round(c / Math.max(1, groups))} MB each)`,
      },
    ];
  } finally {
    if (daemon && daemon.exitCode === null && daemon.signalCode === null) {
      const exited = new Promise<void>((resolve) => daemon?.once('exit', () => resolve()));
      daemon.kill('SIGTERM');
      const timer = setTimeout(() => daemon?.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
