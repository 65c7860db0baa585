/**
 * `npm run chaos`: the real `cc-linker start` under a seeded randomized mix of user messages
 * (from Feishu, or Telegram with `--channel telegram`) and faults — bridge and Claude SIGKILLs,
 * the chat app's 429 / 5xx / timeouts / resets /
 * dropped long connections, re-pushed events, a full spool disk, clock jumps — then a report of
 * lost, duplicated and misanswered messages and leftover processes. Exits 1 when a goal is missed.
 * Flags: see `scripts/chaos/options.ts` (`npm run chaos -- --help`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseChaosOptions } from './chaos/options.js';
import { markdownSummary } from './chaos/report.js';
import { runChaos } from './chaos/run-chaos.js';

async function main(): Promise<number> {
  let options;
  try {
    options = parseChaosOptions(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    return 2;
  }
  const log = (line: string) => process.stderr.write(`${line}\n`);
  log(
    `chaos: ${options.channel}, seed ${options.seed}, ${options.messages} messages, ${options.kills} kills, ${options.engine} engine`,
  );
  const report = await runChaos(options, log);
  process.stdout.write(`${markdownSummary(report)}\n`);
  if (options.report) {
    fs.mkdirSync(path.dirname(path.resolve(options.report)), { recursive: true });
    fs.writeFileSync(options.report, `${JSON.stringify(report, null, 2)}\n`);
  }
  if (report.sandbox) log(`sandbox kept at ${report.sandbox}`);
  return report.passed ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`chaos: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(2);
  },
);
