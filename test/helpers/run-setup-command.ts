import { Command } from 'commander';
import { setupCommand } from '../../src/cli/commands/setup.js';
import { setCliRuntime } from '../../src/cli/context/with-context.js';
import { memoryOutput } from '../../src/cli/context/output.js';
import { registerSpec } from '../../src/cli/launcher/register-spec.js';

/**
 * Runs `cc-linker setup <args…>` in-process through a real commander program, with `env` and
 * captured output. Stdin is the test process's (not a terminal), so setup never asks.
 */
export async function runSetupCommand(args: string[], env: NodeJS.ProcessEnv) {
  const out = memoryOutput();
  let code = -1;
  setCliRuntime({ env, out, setExitCode: (c) => (code = c) });
  try {
    const program = new Command().exitOverride();
    registerSpec(program, setupCommand);
    program.commands.forEach((c) => c.exitOverride());
    await program.parseAsync(['node', 'cc-linker', 'setup', ...args]);
  } finally {
    setCliRuntime({});
  }
  return { code, stdout: out.stdout.join('\n'), stderr: out.stderr.join('\n') };
}
