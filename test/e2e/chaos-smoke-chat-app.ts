import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ChaosReport } from '../../scripts/chaos/run-chaos.js';
import { runChaos } from './chaos-harness.js';

/**
 * `npm run chaos -- --channel <app>` in miniature, for a chat app without send idempotency
 * (Telegram, Slack): the real `cc-linker start` with only that app enabled against its fake, the
 * fast fake engine, 20 messages and 3 SIGKILLs (the seed's plan aims one right after the platform
 * answered a send), stops, platform faults, re-deliveries, a full spool disk and a clock jump.
 * Goals: nothing lost, nothing shown twice outside the documented send window (inside it is
 * reported, never hidden), stops honoured, no process left. The full runs are in docs/chaos.md.
 * `everyStopAnswered`: every stop click got its answer (not asked of Telegram, where a click
 * answered after the run's 5 s wait is counted as unclear even when the stop held).
 * `args`: more flags for the run (e.g. `--telegram-mode webhook`), named in the test's title;
 * `check`: the mode's own expectations of the report; `killAfterAnsweredSend: false` when the seed's
 * plan needs no kill aimed after an answered send (another run of the same app covers it).
 */
export function chaosSmokeOverChatApp(
  channel: string,
  seed: number,
  o: {
    everyStopAnswered?: boolean;
    args?: string[];
    check?: (report: ChaosReport) => void;
    killAfterAnsweredSend?: boolean;
  } = {},
): void {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `cc-linker-chaos-${channel}-`));
  let keptSandbox: string | undefined;
  afterAll(() => {
    if (keptSandbox) fs.rmSync(keptSandbox, { recursive: true, force: true });
    fs.rmSync(dir, { recursive: true, force: true });
  });

  describe(`chaos smoke run over ${[channel, ...(o.args ?? [])].join(' ')}`, () => {
    it('20 messages, 3 bridge kills, platform faults: none lost, no duplicate outside the send window, no leftover process', async () => {
      const reportFile = path.join(dir, 'report.json');
      const r = await runChaos([
        '--channel',
        channel,
        '--seed',
        String(seed),
        '--messages',
        '20',
        '--kills',
        '3',
        '--report',
        reportFile,
        ...(o.args ?? []),
      ]);
      const report = JSON.parse(fs.readFileSync(reportFile, 'utf8')) as ChaosReport;
      keptSandbox = report.sandbox;

      // The run really happened over this app, under faults.
      expect(report.channel).toBe(channel);
      expect(report.platformRequests.total).toBeGreaterThan(report.verdict.sent);
      expect(report.platformRequests.injectedErrors).toBeGreaterThan(0);
      expect(report.verdict.sent).toBeGreaterThanOrEqual(20);
      expect(report.faults.bridgeKills, JSON.stringify(report.lives)).toBeGreaterThanOrEqual(3);
      if (o.killAfterAnsweredSend !== false)
        expect(report.faults.killsAfterWriteAnswered, JSON.stringify(report.faults)).toBeGreaterThanOrEqual(1);
      expect(report.lives.count).toBeGreaterThan(report.faults.bridgeKills);
      expect(report.verdict.replies).toBeGreaterThanOrEqual(report.verdict.sent);
      // The goals; the window is measured (a count, shown in the summary), never hidden.
      expect(report.verdict.lost).toEqual([]);
      expect(report.verdict.duplicated).toEqual([]);
      expect(report.sendWindow?.outsideWindow).toEqual([]);
      expect(report.verdict.misanswered).toEqual([]);
      expect(report.verdict.rerunsAfterAnswer).toEqual([]);
      expect(report.stops.made).toBeGreaterThan(0);
      if (o.everyStopAnswered) expect(report.stops.accepted).toBe(report.stops.made);
      expect(report.stops.honoured).toBe(report.stops.accepted);
      expect(report.leftovers).toEqual([]);
      expect(report.spoolAfterStop.processing).toBe(0);
      o.check?.(report);
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(r.stdout).toContain(`| chunks shown twice inside the documented window`);
      expect(r.stdout).toContain(`| ${report.sendWindow?.insideWindow.length} | reported |`);
    }, 180_000);
  });
}
