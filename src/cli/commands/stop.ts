import type { Command } from 'commander';
import { withContext } from '../define-command.js';
import { readLivePid } from '../start/pid-file.js';
import { startMessages } from '../start/start-messages.js';
import { isProcessAlive } from '../../store/process-start-time.js';

/** `cc-linker stop`: SIGTERM to the running `start` (PID file), then waits for it to finish its shutdown. */
export function registerStopCommand(program: Command): void {
  program
    .command('stop')
    .description('Stop a running cc-linker start (foreground or --daemon)')
    .option('--timeout <seconds>', 'how long to wait for a clean exit', '40')
    .action(
      withContext(async (ctx, opts: { timeout: string }) => {
        const t = startMessages(ctx.lang);
        const pid = await readLivePid(ctx.paths.pidFile);
        if (pid === null) {
          ctx.out.print(t('notRunning'));
          return 0;
        }
        process.kill(pid, 'SIGTERM');
        ctx.out.progress(t('stopSent', { pid }));
        const seconds = Math.max(1, Number.parseInt(opts.timeout, 10) || 40);
        const deadline = Date.now() + seconds * 1000;
        while (Date.now() < deadline) {
          if (!isProcessAlive(pid)) {
            ctx.out.print(t('stopped'));
            return 0;
          }
          await new Promise((r) => setTimeout(r, 200));
        }
        ctx.out.progress(`✖ ${t('stopTimeout', { pid, s: seconds })}`);
        return 1;
      }),
    );
}
