import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stringify } from 'smol-toml';

/** How the "full disk on the spool directory" fault is produced in this sandbox. */
export type DiskFullMethod = 'tmpfs' | 'chattr' | 'chmod';

/** The chaos run's private world: a temp HOME, cc-linker home, projects, spool and logs. */
export interface Sandbox {
  /** Every path of the run starts with this (leftover processes are found by it). */
  readonly root: string;
  readonly home: string;
  readonly ccHome: string;
  /** `~/Workspace`, the only allowed root; the projects live inside. */
  readonly workspace: string;
  /** Project directories, as the user types them (`~/Workspace/p0`, …). */
  readonly projects: string[];
  readonly spoolDir: string;
  /** The fake `claude` copied into the sandbox (fake engine only). */
  readonly claudeBin: string | null;
  /** The fake claude's call log (`start` / `end` / `no-session` records). */
  readonly claudeLog: string;
  /** Read by the clock-shift preload: the bridge's wall clock offset in ms. */
  readonly clockFile: string;
  readonly livesDir: string;
  readonly logFile: string;
  readonly diskFull: DiskFullMethod;
  /** Deletes the sandbox; with `keep`, leaves it (the tmpfs spool copied to `spool-final/`) for a look. */
  cleanup(keep?: boolean): void;
}

export interface SandboxOptions {
  engine: 'fake' | 'real';
  /** The real engine's `claude.mode`. */
  mode: 'sdk' | 'stream-json';
  projects: number;
  /** Config sections of the chat app under test (e.g. `[telegram]`), merged into `config.toml`. */
  extraConfig?: Record<string, unknown>;
}

const FAKE_CLAUDE_SOURCE = path.join(import.meta.dirname, 'fake-claude.mjs');

/**
 * Creates the sandbox and writes `config.toml`. The spool gets its own small tmpfs when this
 * process may mount one (root), so "disk full" is a real ENOSPC; otherwise the fault falls back to
 * making `pending/` unwritable (chattr +i as root, chmod as a normal user).
 */
export function createSandbox(o: SandboxOptions): Sandbox {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cc-linker-chaos-')));
  const home = path.join(root, 'home');
  const ccHome = path.join(home, '.cc-linker');
  const workspace = path.join(home, 'Workspace');
  const spoolDir = path.join(root, 'spool');
  const livesDir = path.join(root, 'lives');
  for (const d of [home, ccHome, workspace, spoolDir, livesDir, path.join(home, '.chaos')])
    fs.mkdirSync(d, { recursive: true, mode: 0o700 });
  const projects: string[] = [];
  for (let i = 0; i < o.projects; i += 1) {
    fs.mkdirSync(path.join(workspace, `p${i}`));
    projects.push(`~/Workspace/p${i}`);
  }
  let claudeBin: string | null = null;
  if (o.engine === 'fake') {
    fs.mkdirSync(path.join(root, 'bin'));
    claudeBin = path.join(root, 'bin', 'claude');
    fs.copyFileSync(FAKE_CLAUDE_SOURCE, claudeBin);
    fs.chmodSync(claudeBin, 0o755);
  }
  let diskFull: DiskFullMethod = process.getuid?.() === 0 ? 'chattr' : 'chmod';
  if (process.platform === 'linux' && process.getuid?.() === 0) {
    const r = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=16m,mode=0700', 'tmpfs', spoolDir], { stdio: 'ignore' });
    if (r.status === 0) diskFull = 'tmpfs';
  }
  const logFile = path.join(ccHome, 'cc-linker.log');
  const clockFile = path.join(root, 'clock-offset');
  fs.writeFileSync(clockFile, '0');
  const config = {
    general: { language: 'en', log_level: 'info', log_path: logFile, ...(claudeBin ? { claude_bin: claudeBin } : {}) },
    claude: { mode: o.engine === 'fake' ? 'json' : o.mode },
    // Unanswered permission prompts are denied after 15 s instead of 10 min, so "never clicked" ends.
    sdk: { permission_mode: 'default', timeout_ms: 15_000 },
    queue: { spool_dir: spoolDir },
    security: { allowed_roots: ['~/Workspace'] },
    web: { enabled: false },
    ...o.extraConfig,
  };
  fs.writeFileSync(path.join(ccHome, 'config.toml'), stringify(config), { mode: 0o600 });
  return {
    root,
    home,
    ccHome,
    workspace,
    projects,
    spoolDir,
    claudeBin,
    claudeLog: path.join(home, '.chaos', 'claude-calls.jsonl'),
    clockFile,
    livesDir,
    logFile,
    diskFull,
    cleanup(keep = false) {
      if (diskFull === 'chattr') spawnSync('chattr', ['-i', path.join(spoolDir, 'pending')], { stdio: 'ignore' });
      if (diskFull === 'tmpfs') {
        if (keep) fs.cpSync(spoolDir, path.join(root, 'spool-final'), { recursive: true });
        spawnSync('umount', ['-l', spoolDir], { stdio: 'ignore' });
      }
      if (!keep) fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

/**
 * Makes the spool unwritable for a moment and returns the undo. tmpfs: a filler file takes every
 * free byte but `leaveFreeBytes` (writes fail with ENOSPC, as on a full disk; a few pages left
 * free make it a nearly full disk where small writes still pass and the next one fails);
 * otherwise `pending/` refuses new files.
 */
export function fillSpool(sb: Sandbox, leaveFreeBytes = 0): () => void {
  const pending = path.join(sb.spoolDir, 'pending');
  if (sb.diskFull === 'tmpfs') {
    const filler = path.join(sb.spoolDir, 'chaos-filler.bin');
    const fd = fs.openSync(filler, 'w');
    const block = Buffer.alloc(64 * 1024, 1);
    try {
      for (;;) fs.writeSync(fd, block);
    } catch {
      // ENOSPC: the disk is full now; a smaller tail still fits, take it too
      try {
        for (;;) fs.writeSync(fd, block, 0, 512);
      } catch {
        // completely full
      }
    } finally {
      if (leaveFreeBytes > 0) fs.ftruncateSync(fd, Math.max(0, fs.fstatSync(fd).size - leaveFreeBytes));
      fs.closeSync(fd);
    }
    return () => fs.rmSync(filler, { force: true });
  }
  if (sb.diskFull === 'chattr') {
    spawnSync('chattr', ['+i', pending], { stdio: 'ignore' });
    return () => void spawnSync('chattr', ['-i', pending], { stdio: 'ignore' });
  }
  fs.chmodSync(pending, 0o500);
  return () => fs.chmodSync(pending, 0o700);
}
