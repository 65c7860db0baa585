import { defineMessages } from '../core/i18n.js';

/** The agents room's messages, zh (default) and en. */
export const agentMessages = defineMessages({
  zh: {
    notFound: '{label}：找不到命令 "{command}"（{where}）。安装：{install}，或在 [agents.{agent}] 中设置 command',
    notFoundConfigured: '{label}：找不到命令 "{command}"（{where}）；请检查 [agents.{agent}] 中的 command',
    notOnPath: 'PATH 中没有',
    notExecutable: '不是可执行文件',
    unknown: '未知的 agent "{agent}"；可用：{known}',
  },
  en: {
    notFound:
      '{label}: command "{command}" not found ({where}). Install: {install}, or set command in [agents.{agent}]',
    notFoundConfigured: '{label}: command "{command}" not found ({where}); check command in [agents.{agent}]',
    notOnPath: 'not on PATH',
    notExecutable: 'not an executable file',
    unknown: 'unknown agent "{agent}"; known: {known}',
  },
});
