import type { Logger as LarkLogger } from '@larksuiteoapi/node-sdk';
import type { Logger } from '../../core/logger.js';
import { redact } from '../../core/redact.js';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/**
 * One SDK log argument as a short line. SDK errors are axios errors whose `config` holds the
 * request (message content, Authorization header): only message, code and status are kept.
 */
function describe(arg: unknown): string {
  if (typeof arg === 'string') return arg.slice(0, 300);
  if (Array.isArray(arg)) return arg.map(describe).join(' ');
  if (!isRecord(arg)) return String(arg);
  const response = isRecord(arg.response) ? arg.response : undefined;
  const parts = [arg.message, arg.code, arg.msg, response?.status].filter(
    (p) => typeof p === 'string' || typeof p === 'number',
  );
  return parts.length > 0 ? parts.join(' ').slice(0, 300) : '[object]';
}

/**
 * Routes the Lark SDK's own log lines into our logger, shortened and redacted, at one level lower
 * (the SDK logs every failed request as an error even when `callFeishu` retries it successfully).
 */
export function sdkLogger(logger: Logger): LarkLogger {
  const line = (args: unknown[]): string => redact(`lark-sdk: ${args.map(describe).join(' ')}`);
  return {
    error: (...args: unknown[]) => logger.warn(line(args)),
    warn: (...args: unknown[]) => logger.info(line(args)),
    info: (...args: unknown[]) => logger.debug(line(args)),
    debug: (...args: unknown[]) => logger.debug(line(args)),
    trace: () => undefined,
  };
}
