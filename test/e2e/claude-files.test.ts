// Attached files and the REAL bundled Claude Code (against the fake Anthropic API): the folder of a
// message's files is readable without a permission prompt (`additionalDirectories` in sdk mode,
// `--add-dir` in stream-json mode), and nothing else is widened: a file outside still asks (sdk
// mode: our prompt handler is called; stream-json mode has no prompts, the read is denied and reported).
// `claude.allowed_tools` is emptied here, because its default (`Read`, `Grep`, `Glob`) allows reading anywhere.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PermissionHandler, PermissionRequest } from '../../src/engine/engine-types.js';
import { CLAUDE_BIN, RUN_TIMEOUT_MS, startEngineHarness, type EngineHarness } from './claude-harness.js';

let h: EngineHarness;
beforeAll(async () => {
  h = await startEngineHarness();
});
afterAll(async () => h?.close());
afterEach(async () => h?.closeEngines());

/** Denies every prompt, recording what was asked. */
function denying(): { permissions: PermissionHandler; asked: PermissionRequest[] } {
  const asked: PermissionRequest[] = [];
  return {
    asked,
    permissions: {
      requestPermission: async (r) => {
        asked.push(r);
        return { behavior: 'deny', message: 'asked' };
      },
      askQuestion: async () => ({ cancelled: true }),
    },
  };
}

function write(file: string, text: string): string {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  fs.writeFileSync(file, text, { mode: 0o600 });
  return file;
}

describe.skipIf(!CLAUDE_BIN).each(['sdk', 'stream-json'] as const)('attached files, real claude, %s mode', (mode) => {
  it(
    'reads the attached file without a prompt; a file outside still asks',
    { timeout: RUN_TIMEOUT_MS * 2 },
    async () => {
      const attached = write(path.join(h.paths.attachmentsDir, `om_${mode}`, 'notes.txt'), `attached ${mode}\n`);
      const outside = write(path.join(h.sb.home, `outside-${mode}`, 'secret.txt'), 'hidden-content-42\n');
      const engine = h.engine(mode, (c) => (c.claude.allowed_tools = []));

      const inside = denying();
      const r1 = await engine.send(
        { prompt: `tool: Read {"file_path":"${attached}"}`, cwd: h.sb.cwd, filePaths: [attached] },
        { permissions: inside.permissions },
      );
      expect(inside.asked).toEqual([]);
      expect(r1.permissionDenials ?? []).toEqual([]);
      expect(r1.text).toMatch(/^tool-result: ok/);
      expect(r1.text).toContain(`attached ${mode}`);

      const other = denying();
      const r2 = await engine.send(
        { prompt: `tool: Read {"file_path":"${outside}"}`, cwd: h.sb.cwd, filePaths: [attached] },
        { permissions: other.permissions },
      );
      const refused = [...other.asked, ...(r2.permissionDenials ?? [])].map((r) => r.toolName);
      expect(refused).toContain('Read');
      expect(r2.text).toMatch(/^tool-result: error/);
      expect(r2.text).not.toContain('hidden-content-42');
    },
  );
});
