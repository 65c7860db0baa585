import type { CommandSpec } from './command-spec.js';
import { readLivePid } from '../start/pid-file.js';
import { startMessages } from '../start/start-messages.js';
import { isProcessAlive } from '../../store/process-start-time.js';

/** `cc-linker stop`: SIGTERM to the running `start` (PID file), then waits for it to finish its shutdown. */
export const stopCommand: CommandSpec = {
  name: 'stop',
  description: 'Stop a running cc-linker start (foreground or --daemon)',
  options: [{ flags: '--timeout <seconds>', description: 'how long to wait for a clean exit', default: '40' }],
  action: async (ctx, opts: { timeout: string }) => {
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
  },
};
