// The baseline of the warm-session bench: the bundled `claude -p` spawned bare (no cc-linker code),
// streaming, with the prompt on stdin — the cheapest way to get an answer from Claude Code.
import { spawn } from 'node:child_process';

/** Where the run goes: an existing session to resume, or a new one with this id. */
export interface BareResumeOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  prompt: string;
  sessionId?: string;
  newSessionId?: string;
}

/**
 * Spawns `claude -p --resume=<id> --output-format stream-json --verbose --include-partial-messages`
 * (or `--session-id=<id>` for a new session) with `prompt` on stdin; resolves the ms from the spawn
 * to its first text delta on stdout (`first`) and to its `result` line (`whole`). Rejects when it
 * exits non-zero or without a result.
 */
export function bareResume(bin: string, o: BareResumeOptions): Promise<{ first: number; whole: number }> {
  const session = o.sessionId ? `--resume=${o.sessionId}` : `--session-id=${o.newSessionId ?? ''}`;
  const args = ['-p', session, '--output-format', 'stream-json', '--verbose', '--include-partial-messages'];
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    let first = Number.NaN;
    let whole = Number.NaN;
    let buffered = '';
    let stderr = '';
    const child = spawn(bin, args, { cwd: o.cwd, env: o.env, stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdin.end(o.prompt);
    child.stdout.on('data', (d: Buffer) => {
      const now = performance.now();
      buffered += d.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        if (Number.isNaN(first) && line.includes('"text_delta"')) first = now - t0;
        if (Number.isNaN(whole) && isResult(line)) whole = now - t0;
      }
    });
    child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 && !Number.isNaN(first) && !Number.isNaN(whole)
        ? resolve({ first, whole })
        : reject(new Error(`bare claude -p exited ${code} (first ${first}, whole ${whole}): ${stderr.trim()}`)),
    );
  });
}

/** A stream-json `result` line (its keys come in no fixed order). */
function isResult(line: string): boolean {
  try {
    return (JSON.parse(line) as { type?: unknown }).type === 'result';
  } catch {
    return false;
  }
}
