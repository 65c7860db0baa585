import { PassThrough } from 'node:stream';
import { memoryOutput } from '../../src/cli/context/output.js';
import { runSetup } from '../../src/cli/setup/run-setup.js';
import type { SetupFlags } from '../../src/cli/setup/setup-answers.js';
import { resolvePaths } from '../../src/core/paths.js';

/** One expected question (the prompt line, ending in ": ") and the answer typed to it. */
export type ScriptStep = [RegExp, string];

/**
 * Runs the setup wizard as a person would: each answer is typed only after its question appears (a
 * line ending in ": "), and each question must match the script (`mismatches` lists those that did
 * not). When the script runs out the input ends.
 */
export async function converse(
  script: ScriptStep[],
  opts: { env: NodeJS.ProcessEnv; cwd: string; flags: SetupFlags; terminal?: boolean },
) {
  const input = new PassThrough();
  const output = new PassThrough();
  const out = memoryOutput();
  let transcript = '';
  let answered = 0;
  let seenPromptAt = -1;
  const mismatches: string[] = [];
  output.on('data', (chunk: Buffer) => {
    transcript += chunk.toString('utf8');
    if (!transcript.endsWith(': ') || seenPromptAt === transcript.length) return;
    seenPromptAt = transcript.length;
    // On a terminal readline moves the cursor (escape sequences) before the prompt.
    const prompt = transcript.slice(transcript.lastIndexOf('\n') + 1).replace(/\u001b\[[0-9;]*[A-Za-z]/g, '');
    const step = script[answered];
    if (!step) {
      input.end();
      return;
    }
    if (!step[0].test(prompt))
      mismatches.push(`question ${answered + 1}: expected ${String(step[0])}, got ${JSON.stringify(prompt)}`);
    answered += 1;
    setImmediate(() => input.write(`${step[1]}\n`));
  });
  const paths = resolvePaths(opts.env);
  const result = await runSetup({ paths, env: opts.env, lang: 'zh', out, cwd: opts.cwd }, opts.flags, {
    input,
    output,
    terminal: opts.terminal ?? false,
    interactive: true,
  }).catch((err: unknown) => err);
  return { result, transcript, stdout: out.stdout.join('\n'), stderr: out.stderr.join('\n'), mismatches, answered };
}
