import { spawn } from 'node:child_process';
import path from 'node:path';

const repo = path.resolve(import.meta.dirname, '../..');

/** Runs `npm run chaos -- <args>` (scripts/chaos.ts) as a child; killed after `timeoutMs`. */
export function runChaos(
  args: string[],
  timeoutMs = 170_000,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(repo, 'scripts/chaos.ts'), ...args], {
      cwd: repo,
      env: { ...process.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
