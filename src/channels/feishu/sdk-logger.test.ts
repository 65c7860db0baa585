import { describe, expect, it } from 'vitest';
import type { Logger } from '../../core/logger.js';
import { sdkLogger } from './sdk-logger.js';

function capture(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const logger: Logger = {
    debug: (m) => void lines.push(`debug ${m}`),
    info: (m) => void lines.push(`info ${m}`),
    warn: (m) => void lines.push(`warn ${m}`),
    error: (m) => void lines.push(`error ${m}`),
    child: () => logger,
  };
  return { logger, lines };
}

describe('sdkLogger', () => {
  it('keeps message, code and status of an axios error, never its request (token, content)', () => {
    const { logger, lines } = capture();
    const axiosError = Object.assign(new Error('Request failed with status code 400'), {
      code: 'ERR_BAD_REQUEST',
      config: {
        headers: { Authorization: 'Bearer t-g1abcdef0123456789abcdef' },
        data: '{"content":"private user text"}',
      },
      response: { status: 400, data: { code: 230001 } },
    });
    sdkLogger(logger).error(axiosError);
    expect(lines).toEqual(['warn lark-sdk: Request failed with status code 400 ERR_BAD_REQUEST 400']);
  });

  it('logs one level lower and redacts token shapes in strings', () => {
    const { logger, lines } = capture();
    const l = sdkLogger(logger);
    l.warn('[ws]', 'token t-g1abcdef0123456789abcdef0123 expired');
    l.info('client ready');
    l.trace('noise');
    expect(lines).toEqual(['info lark-sdk: [ws] token *** expired', 'debug lark-sdk: client ready']);
  });
});
