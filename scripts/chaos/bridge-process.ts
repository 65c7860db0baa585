import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** One run of `cc-linker start`, from spawn to exit. */
export interface Life {
  index: number;
  pid: number;
  startedAt: number;
  /** When this life first connected to the chat app (`ChatUser.connectionsOpened` grew). */
  connectedAt?: number;
  endedAt?: number;
  /** How it ended: killed by the chaos run, stopped cleanly, or exited on its own (a finding). */
  end?: 'killed' | 'stopped' | 'exited';
  exitCode?: number | null;
  signal?: string | null;
  /** Clock offset (ms) the life started with. */
  clockOffsetMs: number;
}

export interface BridgeProcessOptions {
  repo: string;
  env: NodeJS.ProcessEnv;
  livesDir: string;
  /** Extra arguments after `start` (e.g. `--no-feishu`). */
  startArgs?: string[];
  /** Preloaded into the bridge (the clock shift). */
  preload: string;
  /** How many times a bridge connected to the fake chat app so far (a new life is up when it grows). */
  connectionsOpened: () => number;
  log: (line: string) => void;
}

/**
 * The supervisor of the bridge under test: spawns `node dist/cli/launcher/cc-linker.js start`, SIGKILLs it on
 * demand and restarts it like systemd would, records every life, and notices a bridge that died
 * on its own. All lifecycle operations are serialised.
 */
export class BridgeProcess {
  readonly lives: Life[] = [];
  private child: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();
  private chain: Promise<unknown> = Promise.resolve();
  private expectingExit = false;
  private pendingStarts = 0;

  constructor(private readonly o: BridgeProcessOptions) {}

  /** True while a bridge process is alive (connected or still starting). */
  get alive(): boolean {
    return this.child !== undefined;
  }

  get current(): Life | undefined {
    return this.alive ? this.lives[this.lives.length - 1] : undefined;
  }

  /** True while a start is queued or waiting for the long connection. */
  get starting(): boolean {
    return this.pendingStarts > 0;
  }

  /** Lives that ended without being asked to (crashes, failed starts). */
  get unexpectedExits(): Life[] {
    return this.lives.filter((l) => l.end === 'exited');
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.chain.then(fn, fn);
    this.chain = next.catch(() => undefined);
    return next;
  }

  /**
   * Spawns a new life unless one is alive; resolves once its long connection is up (or it died,
   * or 30 s passed). Returns the life, or undefined when one was already running.
   */
  async start(): Promise<Life | undefined> {
    this.pendingStarts += 1;
    try {
      return await this.serial(async () => (this.child ? undefined : this.spawnLife()));
    } finally {
      this.pendingStarts -= 1;
    }
  }

  /** SIGKILLs the current life (if any, even one still starting) and waits until it is gone. */
  async kill(): Promise<boolean> {
    const child = this.child;
    if (!child) return false;
    this.expectingExit = true;
    child.kill('SIGKILL');
    await this.exited;
    return true;
  }

  /** SIGTERM and wait (≤ `timeoutMs`) for a clean exit; returns the exit code (null if it had to be killed). */
  stop(timeoutMs = 45_000): Promise<number | null> {
    return this.serial(async () => {
      const child = this.child;
      if (!child) return null;
      this.expectingExit = true;
      const life = this.lives[this.lives.length - 1] as Life;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      await this.exited;
      clearTimeout(timer);
      life.end = life.signal === 'SIGKILL' ? 'killed' : 'stopped';
      return life.exitCode ?? null;
    });
  }

  private async spawnLife(): Promise<Life> {
    const index = this.lives.length + 1;
    const clockOffsetMs = Number(fs.readFileSync(this.o.env.CHAOS_CLOCK_FILE as string, 'utf8')) || 0;
    const out = fs.openSync(path.join(this.o.livesDir, `life-${String(index).padStart(3, '0')}.log`), 'a');
    const before = this.o.connectionsOpened();
    const child = spawn(
      process.execPath,
      [
        '--import',
        this.o.preload,
        path.join(this.o.repo, 'dist/cli/launcher/cc-linker.js'),
        'start',
        ...(this.o.startArgs ?? []),
      ],
      {
        cwd: this.o.repo,
        env: this.o.env,
        stdio: ['ignore', out, out],
      },
    );
    fs.closeSync(out);
    const life: Life = { index, pid: child.pid ?? -1, startedAt: Date.now(), clockOffsetMs };
    this.lives.push(life);
    this.child = child;
    this.expectingExit = false;
    this.exited = new Promise<void>((resolve) => {
      child.once('exit', (code, signal) => {
        life.endedAt = Date.now();
        life.exitCode = code;
        life.signal = signal;
        life.end = this.expectingExit ? (signal === 'SIGKILL' ? 'killed' : 'stopped') : 'exited';
        if (life.end === 'exited') this.o.log(`life ${index} exited on its own (code ${code}, signal ${signal})`);
        if (this.child === child) this.child = undefined;
        resolve();
      });
    });
    const deadline = Date.now() + 30_000;
    while (this.child === child && Date.now() < deadline && this.o.connectionsOpened() <= before) await sleep(20);
    if (this.child === child && this.o.connectionsOpened() > before) life.connectedAt = Date.now();
    return life;
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
