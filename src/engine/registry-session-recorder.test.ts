import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../core/logger.js';
import { resolvePaths, type Paths } from '../core/paths.js';
import { readRegistry } from '../sessions/registry/registry.js';
import { createRegistrySessionRecorder } from './registry-session-recorder.js';

let root: string;
let paths: Paths;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-linker-rec-'));
  paths = resolvePaths({ HOME: root, CC_LINKER_HOME: path.join(root, '.cc-linker') });
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const ID = 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee';
const at = new Date('2026-03-04T05:06:07Z');

describe('createRegistrySessionRecorder', () => {
  it('provisioning → resolved → runFinished keeps the registry entry complete', async () => {
    const rec = createRegistrySessionRecorder(paths, silentLogger, () => at);
    await rec.provisioning({
      sessionId: ID,
      cwd: '/w/app',
      origin: 'feishu',
      userId: 'ou_1',
      model: 'claude-x',
      prompt: '第一条 消息\n内容',
    });
    let entry = (await readRegistry(paths)).registry.sessions[ID];
    expect(entry).toMatchObject({
      origin: 'feishu',
      cwd: '/w/app',
      project_name: 'app',
      status: 'provisioning',
      jsonl_path: null,
      feishu_user_id: 'ou_1',
      lastKnownProvider: 'claude-x',
      title: '第一条 消息 内容',
      last_user_preview: '第一条 消息 内容',
    });
    await rec.resolved(ID, '/h/.claude/projects/-w-app/x.jsonl');
    entry = (await readRegistry(paths)).registry.sessions[ID];
    expect(entry).toMatchObject({
      status: 'active',
      jsonl_path: '/h/.claude/projects/-w-app/x.jsonl',
      pending_jsonl_resolve: false,
    });
    await rec.runFinished({ sessionId: ID, userPreview: 'q', assistantPreview: 'a'.repeat(200), model: 'claude-y' });
    entry = (await readRegistry(paths)).registry.sessions[ID];
    expect(entry).toMatchObject({
      last_user_preview: 'q',
      lastKnownProvider: 'claude-y',
      last_active: at.toISOString(),
    });
    expect(entry?.last_assistant_preview?.length).toBe(80);
  });

  it('degraded sets the status and the reason; unknown sessions are ignored', async () => {
    const rec = createRegistrySessionRecorder(paths, silentLogger, () => at);
    await rec.provisioning({ sessionId: ID, cwd: '/w/app', origin: 'web', userId: 'web:owner', prompt: 'p' });
    await rec.degraded(ID, 'jsonl_not_found');
    // A web console session is a chat session too: its user is recorded, so the reconciler can map it back after a crash.
    expect((await readRegistry(paths)).registry.sessions[ID]).toMatchObject({
      status: 'degraded',
      last_error: 'jsonl_not_found',
      origin: 'web',
      feishu_user_id: 'web:owner',
    });
    await expect(
      rec.runFinished({ sessionId: 'unknown', userPreview: 'q', assistantPreview: 'a' }),
    ).resolves.toBeUndefined();
    await expect(rec.resolved('unknown', '/x')).resolves.toBeUndefined();
  });
});
