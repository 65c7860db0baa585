import { AppError } from '../core/app-error.js';
import type { Language } from '../core/i18n.js';
import { agentMessages } from './agent-messages.js';

/** What went wrong finding an agent, with what the message needs. */
export type AgentErrorDetail =
  | {
      code: 'AGENT_NOT_FOUND';
      agent: string;
      label: string;
      /** The command as configured (its first word). */
      command: string;
      /** The install line; '' for a configured agent (the message points at its table). */
      install: string;
      /** A bare name missing from PATH, or a path that is not an executable file. */
      why: 'not-on-path' | 'not-executable';
    }
  | { code: 'AGENT_UNKNOWN'; agent: string; known: string[] };

/**
 * An agent that cannot be run: its command is not installed (`AGENT_NOT_FOUND`, naming the command
 * and how to install it), or no agent has that name (`AGENT_UNKNOWN`, naming the known ones).
 */
export class AgentError extends AppError {
  readonly detail: AgentErrorDetail;

  constructor(detail: AgentErrorDetail, options: { cause?: unknown; lang?: Language } = {}) {
    super(detail.code, render(detail, options.lang ?? 'zh'), { cause: options.cause });
    this.detail = detail;
  }

  override localize(lang: Language): string {
    return render(this.detail, lang);
  }
}

function render(detail: AgentErrorDetail, lang: Language): string {
  const t = agentMessages(lang);
  if (detail.code === 'AGENT_UNKNOWN') return t('unknown', { agent: detail.agent, known: detail.known.join(', ') });
  return t(detail.install ? 'notFound' : 'notFoundConfigured', {
    label: detail.label,
    command: detail.command,
    where: t(detail.why === 'not-on-path' ? 'notOnPath' : 'notExecutable'),
    install: detail.install,
    agent: detail.agent,
  });
}
