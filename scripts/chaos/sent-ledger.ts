import fs from 'node:fs';

/**
 * A channel's sent ledger as the bridge left it on disk (`runtime/<channel>-sent.json`, written by
 * `core/json-ledger.ts`): delivery key → what the platform answered; empty before the first send.
 */
export function readSentLedger(file: string): Map<string, string> {
  try {
    const raw = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, { value: string }>;
    return new Map(Object.entries(raw).map(([k, e]) => [k, e.value]));
  } catch {
    return new Map();
  }
}
