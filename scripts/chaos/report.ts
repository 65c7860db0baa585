import type { ChaosReport } from './run-chaos.js';

const mark = (ok: boolean) => (ok ? '✅' : '❌');

/** The markdown summary of a chaos run: one table of figures with their goals, then the findings. */
export function markdownSummary(r: ChaosReport): string {
  const v = r.verdict;
  const f = r.faults;
  const g = r.goals;
  const w = r.sendWindow;
  const perKill = (n: number, kills: number) => (kills > 0 ? (n / kills).toFixed(3) : 'n/a');
  const platform = (name: string) => r.faults.platform[name] ?? 0;
  const rows: Array<[string, string | number, string]> = [
    ['channel', r.platform.mode ? `${r.platform.label} (${r.platform.mode})` : r.platform.label, ''],
    [
      'engine',
      r.engine === 'fake' ? 'fake claude (json mode)' : `real Claude Code (${r.mode} mode) + fake Anthropic API`,
      '',
    ],
    ['seed', r.seed, ''],
    ['duration', `${(r.durationMs / 1000).toFixed(0)} s`, ''],
    [
      'messages sent (the plan, plus messages sent inside a kill and typed /allow answers)',
      v.sent,
      `≥ ${r.requested.messages}`,
    ],
    ['acked by the bridge', v.acked, `${v.sent}`],
    ['replies (bot messages threaded on a user message)', v.replies, ''],
    [
      'final reply: answer / error / notice / card',
      `${v.outcomes.answer} / ${v.outcomes.error} / ${v.outcomes.notice} / ${v.outcomes.card}`,
      '',
    ],
    ['**lost**', `${g.lost.value} ${mark(g.lost.ok)}`, '0'],
    ['**duplicated**', `${g.duplicated.value} ${mark(g.duplicated.ok)}`, '0'],
    ...(w
      ? ([
          [
            `chunks shown twice inside the documented window (a SIGKILL ≤ ${w.windowMs} ms after ${r.platform.label} answered the send, before the bridge recorded it)`,
            w.insideWindow.length,
            'reported',
          ],
          [
            'bridge SIGKILLs that left a chunk shown twice / chunks shown twice per bridge SIGKILL',
            `${w.killsThatHit} of ${f.bridgeKills} / ${perKill(w.insideWindow.length, f.bridgeKills)}`,
            '',
          ],
          ['chunks shown twice outside the window (counted in duplicated)', w.outsideWindow.length, '0'],
          ['bot messages the bridge never recorded as sent', w.unrecorded, ''],
        ] as Array<[string, string | number, string]>)
      : []),
    ["misanswered (another message's answer)", `${g.misanswered.value} ${mark(g.misanswered.ok)}`, '0'],
    ['reply cards left "⏳ Working" (answer sent as text instead)', v.staleCards.length, ''],
    ['Claude re-run after its answer was shown', `${g.rerunsAfterAnswer.value} ${mark(g.rerunsAfterAnswer.ok)}`, '0'],
    [
      '**model re-calls after a shown answer** (the prompt again after its answer was visible, finalised or not)',
      `${g.recallsAfterShown.value} ${mark(g.recallsAfterShown.ok)}`,
      '0',
    ],
    [
      r.engine === 'fake' ? 'Claude runs per message: messages' : 'model calls with the prompt per message: messages',
      v.callsPerMessage === null
        ? 'n/a'
        : Object.entries(v.callsPerMessage)
            .map(([calls, n]) => `${calls}: ${n}`)
            .join(', '),
      '',
    ],
    ['stuck in processing (spool/processing after stop)', r.spoolAfterStop.processing, '0'],
    ['left in pending / replied after stop', `${r.spoolAfterStop.pending} / ${r.spoolAfterStop.replied}`, '0'],
    [
      'in failed/ (answered with an error)',
      `${r.spoolAfterStop.failed}${
        Object.keys(r.failedReasons).length
          ? ` (${Object.entries(r.failedReasons)
              .map(([k, n]) => `${k}: ${n}`)
              .join(', ')})`
          : ''
      }`,
      '',
    ],
    [
      '**stops honoured** (card "Stopped" / "Cancelled", never answered, no engine call with the prompt after the stop)',
      `${r.stops.honoured}/${r.stops.accepted} ${mark(g.stopsNotHonoured.ok)}`,
      'all',
    ],
    ['stops after the answer was final (told "already finished")', r.stops.afterFinal, ''],
    [
      'stops made: typed /stop / Stop button / Cancel of a queued message / followed by a bridge SIGKILL',
      `${r.stops.made}: ${r.stops.byHow.typed} / ${r.stops.byHow.button} / ${r.stops.byHow.cancel} / ${r.stops.byHow.followedByKill}`,
      '',
    ],
    ['stops with no clear answer / not made (no card to stop in time)', `${r.stops.unclear} / ${r.stops.notMade}`, ''],
    [
      'typed /stop that stopped another running message of the session (judged on that one)',
      r.stops.typedStoppedAnother,
      '',
    ],
    ['**leftover processes**', `${g.leftoverProcesses.value} ${mark(g.leftoverProcesses.ok)}`, '0'],
    ['bridge SIGKILLs', f.bridgeKills, `≥ ${r.requested.kills}`],
    ...(w
      ? ([['bridge SIGKILLs right after an answered send or edit', f.killsAfterWriteAnswered, '']] as Array<
          [string, string | number, string]
        >)
      : []),
    ...(r.webhook
      ? ([
          ['bridge SIGKILLs while a webhook POST was in its hands, unanswered', f.killsDuringDelivery, ''],
          ['bridge SIGKILLs right after it answered a webhook POST 2xx', f.killsAfterDeliveryAnswered, ''],
          [
            'webhook POSTs / failed (no answer or non-2xx: Telegram sends the update again) / updates given up',
            `${r.webhook.posts} / ${r.webhook.failed} / ${r.webhook.givenUp}`,
            '… / … / 0',
          ],
        ] as Array<[string, string | number, string]>)
      : []),
    [
      'bridge SIGKILLs while an answer was shown, not finalised',
      r.engine === 'real' ? f.killsWhileAnswerShown : 'n/a (fake engine: no streaming)',
      '',
    ],
    ['bridge lives / exits on its own', `${r.lives.count} / ${r.lives.unexpectedExits.length}`, ''],
    ['Claude child SIGKILLs', f.claudeKills, ''],
    [
      r.engine === 'fake'
        ? 'Claude runs / messages run more than once'
        : 'model requests with a prompt / messages run more than once',
      v.engineRuns === null ? 'n/a' : `${v.engineRuns} / ${v.rerunMessages}`,
      '',
    ],
    [
      `${r.platform.label} ${r.platform.faultNames.join(' / ')} faults`,
      r.platform.faultNames.map(platform).join(' / '),
      '',
    ],
    [
      `${r.platform.label} requests / answered with an injected error`,
      `${r.platformRequests.total} / ${r.platformRequests.injectedErrors}`,
      '',
    ],
    [
      r.channel === 'feishu'
        ? 'dropped long connections'
        : r.webhook
          ? 'dropped connections (a webhook POST in flight included)'
          : 'dropped connections (long poll included)',
      f.wsDrops,
      '',
    ],
    [
      r.channel === 'feishu' ? 'duplicate pushes of acked events' : 'confirmed updates delivered again',
      f.duplicatePushes,
      '',
    ],
    [`spool disk full (${r.diskFullMethod})`, f.diskFull, ''],
    ['clock jumps', f.clockJumps, ''],
    [
      'permission prompts: clicked / never answered',
      r.engine === 'real' ? `${f.permissionClicks} / ${f.permissionNever}` : 'n/a (fake engine)',
      '',
    ],
    ['clean stop exit code', String(r.cleanStopExitCode), '0'],
  ];
  const lines = ['| figure | value | goal |', '|---|---|---|', ...rows.map(([a, b, c]) => `| ${a} | ${b} | ${c} |`)];
  const findings = [
    ...v.lost.map((x) => `- lost #${x.n} (${x.kind}) \`${x.text}\`: ${x.detail}`),
    ...v.duplicated.map((x) => `- duplicated #${x.n} (${x.kind}) \`${x.text}\`: ${x.detail}`),
    ...(w?.insideWindow ?? []).map((x) => `- inside the send window #${x.n} (${x.kind}) \`${x.text}\`: ${x.detail}`),
    ...v.misanswered.map((x) => `- misanswered #${x.n} (${x.kind}) \`${x.text}\`: ${x.detail}`),
    ...v.staleCards.map((x) => `- stale card #${x.n} (${x.kind}) \`${x.text}\`: ${x.detail}`),
    ...v.rerunsAfterAnswer.map((x) => `- re-run #${x.n} (${x.kind}) \`${x.text}\`: ${x.detail}`),
    ...v.recallsAfterShown.map((x) => `- model re-call #${x.n} (${x.kind}) \`${x.text}\`: ${x.detail}`),
    ...r.stops.findings.map((x) => `- ${x.kind} #${x.n} \`${x.text}\`: ${x.detail}`),
    ...r.leftovers.map((p) => `- leftover pid ${p.pid}: \`${p.cmdline}\``),
    ...r.lives.unexpectedExits.map(
      (l) =>
        `- life ${l.index} exited on its own (code ${l.exitCode}, signal ${l.signal}, clock ${l.clockOffsetMs / 60_000} min)`,
    ),
  ];
  const head = `**${r.passed ? 'PASSED' : 'FAILED'}** — replay with \`${r.replay}\``;
  return [
    head,
    '',
    ...lines,
    ...(findings.length
      ? [
          '',
          '**Findings**',
          '',
          ...findings.slice(0, 40),
          ...(findings.length > 40 ? [`- … ${findings.length - 40} more in the JSON report`] : []),
        ]
      : []),
  ].join('\n');
}
