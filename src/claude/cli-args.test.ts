import { describe, expect, it } from 'vitest';
import { buildCliArgs, imageDirectories } from './cli-args.js';

const rules = { allowed: ['Read', 'Bash(npm test:*)'], disallowed: ['WebFetch'] };

describe('buildCliArgs', () => {
  it('json, new session: never contains the prompt', () => {
    const args = buildCliArgs(
      { prompt: '--dangerously-skip-permissions', cwd: '/w' },
      { format: 'json', partial: true, permissionMode: 'default', rules },
    );
    expect(args).toEqual([
      '-p',
      '--output-format',
      'json',
      '--permission-mode',
      'default',
      '--allowedTools',
      'Read',
      'Bash(npm test:*)',
      '--disallowedTools',
      'WebFetch',
    ]);
  });

  it('stream-json resume with model, partial messages and image folders', () => {
    const args = buildCliArgs(
      {
        prompt: 'x',
        cwd: '/w',
        sessionId: 'abc',
        model: 'sonnet',
        imagePaths: ['/i/a.png', '/i/b.png', '/j/c.png', 'relative.png'],
      },
      { format: 'stream-json', partial: true, permissionMode: 'acceptEdits', rules: { allowed: [], disallowed: [] } },
    );
    expect(args).toEqual([
      '--print',
      '--input-format',
      'stream-json',
      '--output-format',
      'stream-json',
      '--verbose',
      '--include-partial-messages',
      '--resume=abc',
      '--model',
      'sonnet',
      '--add-dir',
      '/i',
      '/j',
      '--permission-mode',
      'acceptEdits',
    ]);
    expect(imageDirectories(undefined)).toEqual([]);
  });
});
