import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CommandSpec } from './command-spec.js';
import { serviceUnit } from '../start/service-unit.js';
import { startMessages } from '../start/start-messages.js';

const unit = (env: NodeJS.ProcessEnv, userHome: string) =>
  serviceUnit({
    platform: process.platform,
    node: process.execPath,
    cli: fileURLToPath(new URL('../launcher/cc-linker.js', import.meta.url)),
    home: userHome,
    ...(env.CC_LINKER_HOME ? { ccLinkerHome: env.CC_LINKER_HOME } : {}),
  });

/** `cc-linker service install|uninstall|status`: a systemd user unit (Linux) or a launchd agent (macOS). */
export const serviceCommand: CommandSpec = {
  name: 'service',
  description: 'Run cc-linker start as a user service (systemd on Linux, launchd on macOS)',
  subcommands: [
    {
      name: 'install',
      description: 'Write the service definition and show how to enable it',
      action: async (ctx) => {
        const t = startMessages(ctx.lang);
        const u = unit(ctx.env, ctx.paths.userHome);
        await fs.mkdir(path.dirname(u.file), { recursive: true });
        await fs.writeFile(u.file, u.content, { mode: 0o644 });
        ctx.out.print(t('serviceWritten', { file: u.file }));
        ctx.out.print(t('serviceEnable'));
        for (const c of u.enable) ctx.out.print(`  ${c}`);
        return 0;
      },
    },
    {
      name: 'uninstall',
      description: 'Remove the service definition',
      action: async (ctx) => {
        const t = startMessages(ctx.lang);
        const u = unit(ctx.env, ctx.paths.userHome);
        try {
          await fs.rm(u.file);
          ctx.out.print(t('serviceRemoved', { file: u.file }));
        } catch {
          ctx.out.print(t('serviceMissing', { file: u.file }));
        }
        return 0;
      },
    },
    {
      name: 'status',
      description: 'Say whether the service definition is installed and current',
      action: async (ctx) => {
        const t = startMessages(ctx.lang);
        const u = unit(ctx.env, ctx.paths.userHome);
        const installed = await fs.readFile(u.file, 'utf8').catch(() => null);
        if (installed === null) {
          ctx.out.print(t('serviceMissing', { file: u.file }));
          return 1;
        }
        // A definition written by another version may start a binary that no longer exists.
        if (installed !== u.content) {
          ctx.out.print(t('serviceOutdated', { file: u.file }));
          return 1;
        }
        ctx.out.print(t('serviceInstalled', { file: u.file }));
        return 0;
      },
    },
  ],
};
