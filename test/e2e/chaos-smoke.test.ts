import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ChaosReport } from '../../scripts/chaos/run-chaos.js';
import { runChaos } from './chaos-harness.js';

/**
 * `npm run chaos` in miniature: the real `cc-linker start` process with the fast
 * fake engine, a fixed seed and a tiny budget — 20 messages, 3 SIGKILLs of the bridge plus the
 * other faults, and stops (this seed's plan has a `/stop` of a running answer and a late one) —
 * and the same goals as the full run: nothing lost, nothing answered twice, every accepted stop
 * honoured, no process left behind. The full run and its figures are in docs/chaos.md.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-linker-chaos-smoke-'));
let keptSandbox: string | undefined;
afterAll(() => {
  // A failed run keeps its sandbox for a post-mortem; the test still leaves nothing behind.
  if (keptSandbox) fs.rmSync(keptSandbox, { recursive: true, force: true });
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('chaos smoke run', () => {
  it('20 messages, 3 bridge kills, stops and Feishu/disk/clock faults: none lost, none duplicated, stops honoured, no leftover process', async () => {
    const reportFile = path.join(dir, 'report.json');
    const r = await runChaos(['--seed', '5', '--messages', '20', '--kills', '3', '--report', reportFile]);
    const report = JSON.parse(fs.readFileSync(reportFile, 'utf8')) as ChaosReport;
    keptSandbox = report.sandbox;

    // The run really happened under faults (a smoke test that injected nothing would prove nothing).
    expect(report.verdict.sent).toBeGreaterThanOrEqual(20);
    expect(report.faults.bridgeKills).toBeGreaterThanOrEqual(3);
    expect(report.lives.count).toBeGreaterThan(report.faults.bridgeKills);
    expect(report.verdict.replies).toBeGreaterThanOrEqual(report.verdict.sent);
    // The goals.
    expect(report.verdict.lost).toEqual([]);
    expect(report.verdict.duplicated).toEqual([]);
    expect(report.verdict.misanswered).toEqual([]);
    expect(report.verdict.rerunsAfterAnswer).toEqual([]);
    expect(report.leftovers).toEqual([]);
    expect(report.spoolAfterStop.processing).toBe(0);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('| **lost** | 0 ✅ | 0 |');
    // Stops: the plan has some; each one the bridge accepted held (a stopped message is neither lost nor a duplicate).
    const stops = report.stops;
    expect(stops.made + stops.notMade).toBeGreaterThan(0);
    expect(stops.findings.filter((f) => f.detail.startsWith('accepted'))).toEqual([]);
    expect(stops.honoured).toBe(stops.accepted);
    expect(r.stdout).toContain(`| ${stops.honoured}/${stops.accepted} ✅ | all |`);
  }, 180_000);
});
