import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hookCommand, hookStatus, installHook, uninstallHook, type HookTarget } from './claude-hook.js';

let tmp: string;
let target: HookTarget;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-hook-'));
  target = {
    settingsFile: path.join(tmp, 'claude', 'settings.json'),
    backupDir: path.join(tmp, 'backups'),
    scriptPath: '/opt/cc linker/dist/sessions/session-start-hook.cjs',
  };
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('Claude Code SessionStart hook', () => {
  it('installs into a missing settings file and reports its state', async () => {
    expect((await hookStatus(target)).state).toBe('not_installed');
    expect(await installHook(target)).toMatchObject({ changed: true });
    const s = JSON.parse(fs.readFileSync(target.settingsFile, 'utf8'));
    expect(s).toEqual({
      hooks: {
        SessionStart: [
          {
            hooks: [
              { type: 'command', command: "node '/opt/cc linker/dist/sessions/session-start-hook.cjs'", timeout: 10 },
            ],
          },
        ],
      },
    });
    expect(await hookStatus(target)).toEqual({ state: 'installed', command: hookCommand(target) });
    expect(await hookStatus({ ...target, scriptPath: '/elsewhere/session-start-hook.cjs' })).toMatchObject({
      state: 'outdated',
    });
  });

  it('keeps other hooks and settings, the file mode, and a backup; uninstall restores the original', async () => {
    fs.mkdirSync(path.dirname(target.settingsFile), { recursive: true });
    const original = {
      env: { X: '1' },
      hooks: {
        SessionStart: [{ matcher: 'startup', hooks: [{ type: 'command', command: 'echo hi' }] }],
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'guard' }] }],
      },
    };
    fs.writeFileSync(target.settingsFile, JSON.stringify(original, null, 2), { mode: 0o644 });
    fs.chmodSync(target.settingsFile, 0o644);
    await installHook(target);
    expect(fs.statSync(target.settingsFile).mode & 0o777).toBe(0o644);
    expect(JSON.parse(fs.readFileSync(path.join(target.backupDir, 'settings.json.1'), 'utf8'))).toEqual(original);
    expect(await installHook({ ...target, scriptPath: '/new/place/session-start-hook.cjs' })).toMatchObject({
      changed: true,
    });
    const twice = JSON.parse(fs.readFileSync(target.settingsFile, 'utf8'));
    expect(
      twice.hooks.SessionStart.filter((g: { hooks: { command: string }[] }) =>
        g.hooks.some((h) => h.command.includes('session-start-hook.cjs')),
      ),
    ).toHaveLength(1);
    expect(await uninstallHook(target)).toMatchObject({ changed: true });
    expect(JSON.parse(fs.readFileSync(target.settingsFile, 'utf8'))).toEqual(original);
    expect(await uninstallHook(target)).toMatchObject({ changed: false });
  });

  it('follows a symlinked settings file instead of replacing the link', async () => {
    const real = path.join(tmp, 'dotfiles', 'claude-settings.json');
    fs.mkdirSync(path.dirname(real), { recursive: true });
    fs.mkdirSync(path.dirname(target.settingsFile), { recursive: true });
    fs.writeFileSync(real, '{"model":"opus"}');
    fs.symlinkSync(real, target.settingsFile);
    await installHook(target);
    expect(fs.lstatSync(target.settingsFile).isSymbolicLink()).toBe(true);
    expect(JSON.parse(fs.readFileSync(real, 'utf8'))).toMatchObject({ model: 'opus', hooks: { SessionStart: [{}] } });
  });

  it('refuses settings that are not a JSON object and leaves them untouched', async () => {
    fs.mkdirSync(path.dirname(target.settingsFile), { recursive: true });
    for (const bad of ['{not json', '[1,2]', '{"hooks":[]}', '{"hooks":{"SessionStart":{}}}']) {
      fs.writeFileSync(target.settingsFile, bad);
      await expect(installHook(target)).rejects.toMatchObject({ code: 'HOOK_SETTINGS_INVALID' });
      expect(fs.readFileSync(target.settingsFile, 'utf8')).toBe(bad);
    }
  });

  it('an older install running session-start-hook.js is ours: outdated, replaced by install, removed by uninstall', async () => {
    fs.mkdirSync(path.dirname(target.settingsFile), { recursive: true });
    const legacy = "node '/opt/cc linker/dist/sessions/session-start-hook.js'";
    const other = { type: 'command', command: 'echo session-start-hook' };
    fs.writeFileSync(
      target.settingsFile,
      JSON.stringify({
        hooks: { SessionStart: [{ hooks: [other] }, { hooks: [{ type: 'command', command: legacy, timeout: 10 }] }] },
      }),
    );
    expect(await hookStatus(target)).toEqual({ state: 'outdated', command: legacy });
    expect(await installHook(target)).toMatchObject({ changed: true });
    const s = JSON.parse(fs.readFileSync(target.settingsFile, 'utf8'));
    expect(s.hooks.SessionStart).toEqual([
      { hooks: [other] },
      { hooks: [{ type: 'command', command: hookCommand(target), timeout: 10 }] },
    ]);
    expect((await hookStatus(target)).state).toBe('installed');
    fs.writeFileSync(
      target.settingsFile,
      JSON.stringify({
        hooks: { SessionStart: [{ hooks: [other] }, { hooks: [{ type: 'command', command: legacy }] }] },
      }),
    );
    expect(await uninstallHook(target)).toMatchObject({ changed: true });
    expect(JSON.parse(fs.readFileSync(target.settingsFile, 'utf8')).hooks.SessionStart).toEqual([{ hooks: [other] }]);
  });

  it('bakes a relocated CC_LINKER_HOME into the command', () => {
    expect(hookCommand({ ...target, ccLinkerHome: '/x/y', scriptPath: '/s/session-start-hook.cjs' })).toBe(
      'CC_LINKER_HOME=/x/y node /s/session-start-hook.cjs',
    );
  });
});
