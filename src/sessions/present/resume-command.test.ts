import { describe, expect, it } from 'vitest';
import { resumeCommandLine } from './resume-command.js';

const ID = '8c4b1297-0000-4000-8000-000000000001';

describe('resumeCommandLine', () => {
  it('names `claude` by default and quotes directory and id', () => {
    expect(resumeCommandLine('/w/my app', ID)).toBe(`cd '/w/my app' && claude --resume ${ID}`);
  });

  it('names the given Claude Code program, shell-quoted, when `claude` is not on PATH', () => {
    expect(resumeCommandLine('/w', ID, 'claude', '/opt/sdk/claude')).toBe(`cd /w && /opt/sdk/claude --resume ${ID}`);
    expect(resumeCommandLine('/w', ID, 'claude', "/opt/it's here/claude")).toBe(
      `cd /w && '/opt/it'\\''s here/claude' --resume ${ID}`,
    );
  });

  it("leaves other agents' commands alone", () => {
    expect(resumeCommandLine('/w', 'ses_ab12', 'opencode', '/opt/sdk/claude')).toBe(
      'cd /w && opencode --session ses_ab12',
    );
    expect(resumeCommandLine('/w', ID, 'codex', '/opt/sdk/claude')).toBe(`cd /w && codex resume ${ID}`);
  });
});
