import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AGENT_IDS, agentDirsIn, writeAgentTrees } from '../../../../test/fixtures/agent-trees.js';
import { locateAgentSession } from './locate-agent-session.js';

let tmp: string;
beforeEach(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cc-locate-')));
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('locateAgentSession', () => {
  it('finds the file of each agent’s session by its id (Gemini: the newest file of the id)', async () => {
    const home = path.join(tmp, 'home');
    const files = await writeAgentTrees(home, new Date('2026-06-01T12:00:00.000Z'));
    const dirs = agentDirsIn(home);
    expect(locateAgentSession('codex', dirs, AGENT_IDS.codex)).toBe(files.codex);
    expect(locateAgentSession('qwen', dirs, AGENT_IDS.qwen)).toBe(files.qwen);
    expect(locateAgentSession('gemini', dirs, AGENT_IDS.gemini)).toBe(files.gemini);
    expect(locateAgentSession('opencode', dirs, AGENT_IDS.opencode)).toBe(files.opencode);
  });

  it('is null for an id that has no file yet, for Claude Code and for an agent it cannot read', async () => {
    const home = path.join(tmp, 'home');
    await writeAgentTrees(home, new Date('2026-06-01T12:00:00.000Z'));
    const dirs = agentDirsIn(home);
    expect(locateAgentSession('codex', dirs, '019a0000-0000-7000-8000-000000000000')).toBeNull();
    expect(locateAgentSession('claude', dirs, AGENT_IDS.codex)).toBeNull();
    expect(locateAgentSession('my-agent', dirs, AGENT_IDS.codex)).toBeNull();
    expect(locateAgentSession('qwen', agentDirsIn(path.join(tmp, 'nobody')), AGENT_IDS.qwen)).toBeNull();
  });
});
