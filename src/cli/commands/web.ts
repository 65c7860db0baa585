import { defineMessages } from '../../core/i18n.js';
import { startMessages } from '../start/start-messages.js';
import type { CommandSpec } from './command-spec.js';

const messages = defineMessages({
  zh: {
    rotated:
      '✅ 已生成新的控制台令牌并写入 {file}。所有浏览器的登录都已结束；正在运行的控制台从下一个请求起只接受新令牌。',
  },
  en: {
    rotated:
      '✅ Wrote a new console token to {file}. Every browser login has ended; a running console accepts only the new token from its next request on.',
  },
});

/**
 * `cc-linker web rotate-token`: a new random console token in `~/.cc-linker/web-token` (0600,
 * written atomically), and every console login ended — the login store is deleted, and a running
 * console notices the new token file at its next request and drops its logins too. Prints the new
 * start URL once, as `start` does. Refused (exit 78) when `web.token` is set in the config.
 *
 * `cc-linker web url`: prints the console's login URL with the current token (the config's
 * `web.token`, else the token file — made once when missing, as `start` would), changing nothing
 * else. The login page points here.
 */
export const webCommand: CommandSpec = {
  name: 'web',
  description: 'Manage the local web console',
  subcommands: [
    {
      name: 'url',
      description: 'Print the login URL of the local web console (with its token)',
      action: async (ctx) => {
        const { loadWebToken } = await import('../../channels/web/http/web-token.js');
        const { consoleUrl } = await import('../../channels/web/http/bind-address.js');
        const { token } = await loadWebToken(ctx.config, ctx.paths, ctx.lang);
        const url = consoleUrl(ctx.config.web.host.trim() || '127.0.0.1', ctx.config.web.port, token);
        ctx.out.print(startMessages(ctx.lang)('web', { url }));
        return 0;
      },
    },
    {
      name: 'rotate-token',
      description: 'Replace the console token with a new random one and end every browser login',
      action: async (ctx) => {
        const { rotateWebToken } = await import('../../channels/web/http/web-token.js');
        const { consoleUrl } = await import('../../channels/web/http/bind-address.js');
        const token = await rotateWebToken(ctx.config, ctx.paths, ctx.lang);
        ctx.out.print(messages(ctx.lang)('rotated', { file: ctx.paths.webTokenFile }));
        const url = consoleUrl(ctx.config.web.host.trim() || '127.0.0.1', ctx.config.web.port, token);
        ctx.out.print(startMessages(ctx.lang)('web', { url }));
        return 0;
      },
    },
  ],
};
