/**
 * Runs cc-linker's session commands in-process through a real commander program (no child
 * process), with an injected environment, clock and captured output — for golden tests.
 */
import { Command, CommanderError } from 'commander';
import { setCliRuntime } from '../../src/cli/context/with-context.js';
import { memoryOutput } from '../../src/cli/context/output.js';
import { loadCommandSpecs, SESSION_COMMANDS } from '../../src/cli/launcher/command-loaders.js';
import { registerSpec } from '../../src/cli/launcher/register-spec.js';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `cc-linker <args…>` and returns its exit code and output. */
export async function runSessionCli(args: string[], opts: { env: NodeJS.ProcessEnv; now: Date }): Promise<CliRun> {
  const out = memoryOutput();
  let code = 0;
  const program = new Command().name('cc-linker').exitOverride();
  program.configureOutput({
    writeOut: (s) => out.print(s.replace(/\n$/, '')),
    writeErr: (s) => out.progress(s.replace(/\n$/, '')),
  });
  for (const spec of await loadCommandSpecs(SESSION_COMMANDS)) registerSpec(program, spec);
  for (const sub of program.commands) {
    sub.exitOverride();
    sub.configureOutput({
      writeOut: (s) => out.print(s.replace(/\n$/, '')),
      writeErr: (s) => out.progress(s.replace(/\n$/, '')),
    });
    for (const leaf of sub.commands)
      leaf.exitOverride().configureOutput({
        writeOut: (s) => out.print(s.replace(/\n$/, '')),
        writeErr: (s) => out.progress(s.replace(/\n$/, '')),
      });
  }
  setCliRuntime({ env: opts.env, out, now: () => opts.now, setExitCode: (c) => (code = c) });
  try {
    await program.parseAsync(['node', 'cc-linker', ...args]);
  } catch (err) {
    if (!(err instanceof CommanderError)) throw err;
    code = err.exitCode;
  } finally {
    setCliRuntime({});
  }
  return { code, stdout: out.stdout.join('\n'), stderr: out.stderr.join('\n') };
}

/** Replaces every occurrence of the temp dir with `<TMP>` (and the node version with vX), for goldens. */
export function normalize(text: string, tmp: string): string {
  return text
    .split(tmp)
    .join('<TMP>')
    .replace(/v\d+\.\d+\.\d+/g, 'vX.Y.Z');
}
