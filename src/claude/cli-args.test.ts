import { describe, expect, it } from 'vitest';
import { buildCliArgs, imageDirectories, readableDirectories } from './cli-args.js';

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

  it('adds the folders of attached files to --add-dir, and nothing else', () => {
    const request = {
      prompt: 'x',
      cwd: '/w',
      imagePaths: ['/i/a.png'],
      filePaths: ['/att/om_1/a.pdf', '/att/om_1/b.txt'],
    };
    const args = buildCliArgs(request, {
      format: 'json',
      partial: false,
      permissionMode: 'default',
      rules: { allowed: [], disallowed: [] },
    });
    expect(args.slice(args.indexOf('--add-dir'), args.indexOf('--permission-mode'))).toEqual([
      '--add-dir',
      '/i',
      '/att/om_1',
    ]);
    expect(readableDirectories({ filePaths: ['/att/om_2/x'] })).toEqual(['/att/om_2']);
    expect(readableDirectories({})).toEqual([]);
  });
});

describe('buildCliArgs with send_file offered', () => {
  it('--mcp-config is one argument before the variadic lists', () => {
    const args = buildCliArgs(
      { prompt: 'x', cwd: '/w', filePaths: ['/a/f.txt'] },
      { format: 'json', partial: false, permissionMode: 'default', rules, mcpArgs: ['--mcp-config=/r/mcp/1.json'] },
    );
    const at = args.indexOf('--mcp-config=/r/mcp/1.json');
    expect(at).toBeGreaterThan(0);
    expect(at).toBeLessThan(args.indexOf('--add-dir'));
    expect(args.filter((a) => a.startsWith('--mcp-config'))).toHaveLength(1);
  });
});
