import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { mcpLaunchCommand } from './mcp-launch.js';

describe('mcpLaunchCommand', () => {
  let tmp: string | undefined;
  afterEach(() => tmp && fs.rmSync(tmp, { recursive: true, force: true }));

  it('the built package: this Node and dist/cli/launcher/cc-linker.js next to the module, `mcp`', () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-launch-'));
    const dist = path.join(tmp, 'dist', 'cli');
    fs.mkdirSync(path.join(dist, 'start'), { recursive: true });
    fs.mkdirSync(path.join(dist, 'launcher'), { recursive: true });
    fs.writeFileSync(path.join(dist, 'launcher', 'cc-linker.js'), '');
    const url = pathToFileURL(path.join(dist, 'start', 'mcp-launch.js')).href;
    expect(mcpLaunchCommand(url)).toEqual({
      command: process.execPath,
      args: [path.join(dist, 'launcher', 'cc-linker.js'), 'mcp'],
    });
  });

  it('the sources: the .ts entry with tsx loaded by an absolute file URL (it works from any cwd)', () => {
    const { command, args } = mcpLaunchCommand();
    expect(command).toBe(process.execPath);
    expect(args[0]).toBe('--import');
    expect(args[1]).toMatch(/^file:\/\/.*\/tsx\/dist\/loader\.mjs$/);
    expect(fs.existsSync(new URL(args[1] ?? ''))).toBe(true);
    expect(args.slice(2)).toEqual([path.resolve(import.meta.dirname, '..', 'launcher', 'cc-linker.ts'), 'mcp']);
  });
});
