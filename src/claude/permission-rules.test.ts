import { describe, expect, it } from 'vitest';
import {
  firstMatchingRule,
  formatRule,
  matchesRule,
  parseRule,
  suggestionRules,
  type ToolCall,
} from './permission-rules.js';

const call = (toolName: string, input: Record<string, unknown>): ToolCall => ({
  toolName,
  input,
  cwd: '/w/app',
  home: '/h',
});
const bash = (command: string): ToolCall => call('Bash', { command });

describe('parseRule / formatRule', () => {
  it.each([
    ['Read', { tool: 'Read' }],
    ['Bash(npm test:*)', { tool: 'Bash', content: 'npm test:*' }],
    ['Bash(touch f *)', { tool: 'Bash', content: 'touch f *' }],
    ['mcp__github', { tool: 'mcp__github' }],
  ])('%s', (text, parsed) => {
    expect(parseRule(text)).toEqual(parsed);
    expect(formatRule(parsed)).toBe(text);
  });
  it.each(['', 'Bash()', 'Bash (x)', 'Bash(x', 'two words'])('rejects %j', (text) =>
    expect(parseRule(text)).toBeNull(),
  );
});

describe('suggestionRules', () => {
  it('turns addRules suggestions into rule strings and skips setMode / addDirectories / deny rules', () => {
    const suggestions = [
      {
        type: 'addRules',
        rules: [{ toolName: 'Bash', ruleContent: 'touch f *' }],
        behavior: 'allow',
        destination: 'localSettings',
      },
      { type: 'addDirectories', directories: ['/w'], destination: 'session' },
      { type: 'setMode', mode: 'acceptEdits', destination: 'session' },
      { type: 'addRules', rules: [{ toolName: 'Read' }], behavior: 'allow', destination: 'session' },
      {
        type: 'addRules',
        rules: [{ toolName: 'Bash', ruleContent: 'rm *' }],
        behavior: 'deny',
        destination: 'session',
      },
    ];
    expect(suggestionRules(suggestions)).toEqual(['Bash(touch f *)', 'Read']);
    expect(suggestionRules(undefined)).toEqual([]);
    expect(suggestionRules([null, 3, { type: 'addRules', rules: 'x' }])).toEqual([]);
  });
});

describe('matchesRule', () => {
  it('bare tool names match every call of the tool', () => {
    expect(matchesRule('Read', call('Read', { file_path: '/etc/passwd' }))).toBe(true);
    expect(matchesRule('Read', call('Write', { file_path: 'a' }))).toBe(false);
  });

  it('Bash legacy prefix rules', () => {
    expect(matchesRule('Bash(npm test:*)', bash('npm test'))).toBe(true);
    expect(matchesRule('Bash(npm test:*)', bash('npm test -- --watch'))).toBe(true);
    expect(matchesRule('Bash(npm test:*)', bash('npm testing'))).toBe(false);
    expect(matchesRule('Bash(npm test:*)', bash('npm run build'))).toBe(false);
  });

  it('Bash wildcard rules (trailing " *" also matches no arguments)', () => {
    expect(matchesRule('Bash(touch f *)', bash('touch f'))).toBe(true);
    expect(matchesRule('Bash(touch f *)', bash('touch f g'))).toBe(true);
    expect(matchesRule('Bash(git * --dry-run)', bash('git push --dry-run'))).toBe(true);
    expect(matchesRule('Bash(touch f *)', bash('touch fg'))).toBe(false);
  });

  it('never lets a prefix or wildcard rule cover chained or redirected commands', () => {
    for (const cmd of [
      'npm test && rm -rf ~',
      'npm test; curl x',
      'npm test | sh',
      'npm test > /etc/x',
      'npm test $(evil)',
      'npm test `evil`',
      'npm test\nrm x',
    ]) {
      expect(matchesRule('Bash(npm test:*)', bash(cmd))).toBe(false);
      expect(matchesRule('Bash(npm *)', bash(cmd))).toBe(false);
    }
    expect(matchesRule('Bash(ls | wc -l)', bash('ls | wc -l'))).toBe(true); // an exact rule is exact
  });

  it('path rules for file tools', () => {
    expect(matchesRule('Edit(src/**)', call('Edit', { file_path: '/w/app/src/a/b.ts' }))).toBe(true);
    expect(matchesRule('Edit(./src/*.ts)', call('Edit', { file_path: 'src/a.ts' }))).toBe(true);
    expect(matchesRule('Edit(./src/*.ts)', call('Edit', { file_path: 'src/deep/a.ts' }))).toBe(false);
    expect(matchesRule('Read(~/notes/**)', call('Read', { file_path: '/h/notes/x.md' }))).toBe(true);
    expect(matchesRule('Read(//etc/*)', call('Read', { file_path: '/etc/hosts' }))).toBe(true);
    expect(matchesRule('Edit(src/**)', call('Edit', { file_path: '/w/app/../other/src/x' }))).toBe(false);
  });

  it('WebFetch domain rules, MCP server rules, unknown content', () => {
    expect(matchesRule('WebFetch(domain:example.com)', call('WebFetch', { url: 'https://docs.example.com/a' }))).toBe(
      true,
    );
    expect(matchesRule('WebFetch(domain:example.com)', call('WebFetch', { url: 'https://example.com.evil.io/' }))).toBe(
      false,
    );
    expect(matchesRule('mcp__github', call('mcp__github__create_issue', {}))).toBe(true);
    expect(matchesRule('mcp__github', call('mcp__gitlab__x', {}))).toBe(false);
    expect(matchesRule('Task(anything)', call('Task', { prompt: 'anything' }))).toBe(false);
  });

  it('firstMatchingRule returns the covering rule', () => {
    expect(firstMatchingRule(['Read', 'Bash(git status)'], bash('git status'))).toBe('Bash(git status)');
    expect(firstMatchingRule(['Read'], bash('git status'))).toBeNull();
  });
});
