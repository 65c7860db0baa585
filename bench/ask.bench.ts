// `cc-linker ask`: what the command itself adds before its first answer, i.e. (time from the start of
// the command to the first answer text) − (time the model server spent on it). The model is the fake
// OpenAI server on 127.0.0.1 answering one text chunk after a fixed pause (MODEL_MS); the CLI is the
// fake ChainlessChain CLI (whose `--version` costs one Node start, like the real one's ≈0.3 s less
// its module loading). Two ways, each cold (no CLI version cache file: `--version` runs) and cached:
//  1. in process: the `ask` command through commander, `withContext` and the gateway, exactly as the
//     binary runs it (modules already loaded after the first run);
//  2. the built binary (`dist/cli/launcher/cc-linker.js ask`, when built), against `node -e 0` in the
//     same run: Node's own start and module loading included.
// Run: node --import tsx bench/ask.bench.ts   (npm run build first for part 2)
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { askCommand } from '../src/cli/commands/ask.js';
import type { Output } from '../src/cli/context/output.js';
import { setCliRuntime } from '../src/cli/context/with-context.js';
import { registerSpec } from '../src/cli/launcher/register-spec.js';
import {
  startGatewayHarness,
  writeHarnessConfig,
  type GatewayHarness,
} from '../test/fakes/fake-chainlesschain/gateway-harness.js';
import {
  openaiTextTurn,
  startFakeOpenAIServer,
  type OpenAIFakeTurn,
} from '../test/fakes/fake-llm/fake-openai-server.js';
import { atMost, emitFigure, isQuick, percentile, round } from './report.js';

const MODEL_MS = 100;
const RUNS = isQuick() ? 5 : 15;
const GOAL_MS = 50;
const BIN = fileURLToPath(new URL('../dist/cli/launcher/cc-linker.js', import.meta.url));
const ANSWER = '你最近有 3 条笔记。';

/** The model's turn: a fixed pause, then the whole answer, then the end. */
function slowAnswer(): OpenAIFakeTurn {
  const turn = openaiTextTurn(ANSWER);
  return 'events' in turn ? { events: [{ kind: 'pause', ms: MODEL_MS }, ...turn.events] } : turn;
}

/** One in-process `ask`: ms from the start to the answer printed, and from the start to the request. */
async function inProcess(h: GatewayHarness, arrived: () => number): Promise<{ total: number; before: number }> {
  let answeredAt = 0;
  const out: Output = {
    print: () => void (answeredAt ||= performance.now()),
    progress: () => undefined,
    json: () => undefined,
    isTTY: false,
  };
  let code = -1;
  setCliRuntime({ env: h.env, out, setExitCode: (c) => (code = c) });
  const program = new Command().exitOverride();
  registerSpec(program, askCommand);
  const t0 = performance.now();
  await program.parseAsync(['node', 'cc-linker', 'ask', '列一下最近的笔记']);
  if (code !== 0 || answeredAt === 0) throw new Error(`ask failed (exit ${code})`);
  return { total: answeredAt - t0, before: arrived() - t0 };
}

/** One run of the built binary: ms from spawn to the answer's first byte on stdout; `t0` its spawn. */
function binary(argv: string[], env: NodeJS.ProcessEnv, expect?: string, t0 = performance.now()): Promise<number> {
  return new Promise((resolve, reject) => {
    let first = 0;
    let stdout = '';
    const child = spawn(process.execPath, argv, { env, stdio: ['ignore', 'pipe', 'ignore'] });
    child.stdout.on('data', (chunk: Buffer) => {
      first ||= performance.now();
      stdout += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0 || (expect !== undefined && !stdout.includes(expect)))
        return reject(new Error(`${argv.join(' ')} exited ${code}: ${stdout}`));
      resolve((first || performance.now()) - t0);
    });
  });
}

async function main(): Promise<void> {
  let arrivedAt = 0;
  const h = await startGatewayHarness();
  // Every request is answered after MODEL_MS; its arrival time is when the model's time starts.
  const script = (): OpenAIFakeTurn => {
    arrivedAt = performance.now();
    return slowAnswer();
  };
  const server = await startFakeOpenAIServer({ script });
  const openai = h.config.ccexec.providers.openai;
  if (!openai) throw new Error('the harness has no openai provider');
  h.config.ccexec.providers.openai = { ...openai, base_url: server.baseURL };
  writeHarnessConfig(h);
  const cacheFile = h.paths.ccexecVersionFile;
  try {
    const rows: Array<{ name: string; cold: number[]; cached: number[]; before: number[] }> = [];
    const ip = { name: 'in process', cold: [] as number[], cached: [] as number[], before: [] as number[] };
    await inProcess(h, () => arrivedAt); // loads the modules once, writes the cache file
    for (let i = 0; i < RUNS; i++) {
      fs.rmSync(cacheFile, { force: true });
      ip.cold.push((await inProcess(h, () => arrivedAt)).total - MODEL_MS);
      const cached = await inProcess(h, () => arrivedAt);
      ip.cached.push(cached.total - MODEL_MS);
      ip.before.push(cached.before);
    }
    rows.push(ip);

    const built = fs.existsSync(BIN);
    const bin = { name: 'built binary', cold: [] as number[], cached: [] as number[], before: [] as number[] };
    const nodeStart: number[] = [];
    if (built) {
      const ask = [BIN, 'ask', '列一下最近的笔记'];
      await binary(ask, h.env, ANSWER);
      for (let i = 0; i < RUNS; i++) {
        nodeStart.push(await binary(['-e', 'process.stdout.write("x")'], h.env));
        fs.rmSync(cacheFile, { force: true });
        bin.cold.push((await binary(ask, h.env, ANSWER)) - MODEL_MS);
        const t0 = performance.now();
        bin.cached.push((await binary(ask, h.env, ANSWER, t0)) - MODEL_MS);
        bin.before.push(arrivedAt - t0);
      }
      rows.push(bin);
    }

    const p50 = (v: number[]): number => percentile(v, 50);
    console.log(`\n## ask: first answer − model time (model pause ${MODEL_MS} ms, n=${RUNS})\n`);
    console.log('| path | cold (no version cache) p50 | cached p50 |');
    console.log('|---|---:|---:|');
    for (const r of rows) console.log(`| ${r.name} | ${p50(r.cold).toFixed(1)} ms | ${p50(r.cached).toFixed(1)} ms |`);
    if (built) console.log(`\n\`node -e 0\` (first stdout byte) p50: ${p50(nodeStart).toFixed(1)} ms`);

    emitFigure({
      figure: '`ask` first answer − model time p50 (in process, CLI version cached)',
      value: round(p50(ip.cached)),
      unit: 'ms',
      goal: `≤ ${GOAL_MS} ms`,
      baseline: `cold (no cache file, \`--version\` runs): p50 ${p50(ip.cold).toFixed(1)} ms`,
      met: atMost(p50(ip.cached), GOAL_MS),
      note: `start → model request p50 ${p50(ip.before).toFixed(1)} ms; model pause ${MODEL_MS} ms; n=${RUNS}`,
    });
    emitFigure({
      figure: '`cc-linker ask` (built) first answer − model time p50, CLI version cached',
      value: built ? round(p50(bin.cached)) : null,
      unit: 'ms',
      goal: null,
      baseline: built ? `\`node -e 0\` first byte: p50 ${p50(nodeStart).toFixed(1)} ms` : null,
      met: null,
      note: built
        ? `cold (no cache file): p50 ${p50(bin.cold).toFixed(1)} ms; spawn → model request p50 ${p50(bin.before).toFixed(1)} ms; minus node start: cached ${(p50(bin.cached) - p50(nodeStart)).toFixed(1)} ms, cold ${(p50(bin.cold) - p50(nodeStart)).toFixed(1)} ms; n=${RUNS}`
        : 'not built: run npm run build first',
    });
  } finally {
    setCliRuntime({});
    await server.close();
    await h.close();
  }
}

await main();
