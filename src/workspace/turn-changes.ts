import fs from 'node:fs/promises';
import path from 'node:path';
import { createTwoFilesPatch } from 'diff';
import { isInside } from '../core/path-inside.js';
import type { ExportedMessage } from '../sessions/present/export-session.js';
import type { GitStatus } from './git-status.js';
import { runGit } from './run-git.js';

/** The tools whose calls change a file, and what they do to it. */
const EDIT_TOOLS: Record<string, ChangeKind> = {
  Edit: 'edit',
  MultiEdit: 'edit',
  Write: 'write',
  NotebookEdit: 'notebook',
};

export type ChangeKind = 'edit' | 'write' | 'notebook';

/** One file a turn changed, with a unified diff. */
export interface TurnFileChange {
  /** Relative to the session's directory when inside it, else absolute. */
  path: string;
  change: ChangeKind;
  diff: string;
  /** `git`: the working tree's diff against HEAD now; `transcript`: built from the tool inputs. */
  source: 'git' | 'transcript';
  truncated: boolean;
}

/** One turn: a prompt and what the agent changed while answering it. */
export interface TurnChanges {
  /** The turn's place in the transcript, from 0. */
  index: number;
  timestamp: string | null;
  /** The prompt's first line, cut. */
  prompt: string;
  files: TurnFileChange[];
}

/** Longest diff kept per file; files kept per turn; characters of tool input diffed. */
export const MAX_DIFF_CHARS = 64 * 1024;
export const MAX_FILES_PER_TURN = 100;
const MAX_DIFF_INPUT = 256 * 1024;
const PROMPT_CHARS = 120;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/**
 * The files the agent changed, per turn of a transcript read with `detail: true` (newest turn
 * first; turns that changed nothing are left out). Only Edit, MultiEdit, Write and NotebookEdit
 * calls whose result came back without an error count. In a git work tree (`git` given) a file
 * that is still changed now shows `git diff HEAD` for it (the working tree against HEAD, not the
 * turn's own edit); any other file shows the patch built from the tool inputs.
 *
 * @example
 *   const turns = await turnChanges(messages, '/home/me/Git/app', await gitStatus('/home/me/Git/app'));
 */
export async function turnChanges(
  messages: readonly ExportedMessage[],
  cwd: string,
  git: GitStatus | null,
): Promise<TurnChanges[]> {
  const turns: TurnChanges[] = [];
  const gitDiffs = new Map<string, Promise<string | null>>();
  let current: { turn: TurnChanges; byPath: Map<string, TurnFileChange> } | null = null;
  let index = -1;
  for (const m of messages) {
    if (m.role === 'user') {
      index += 1;
      current = null;
      const firstLine = m.text.trim().split('\n', 1)[0] ?? '';
      const prompt = firstLine.length > PROMPT_CHARS ? `${firstLine.slice(0, PROMPT_CHARS)}…` : firstLine;
      current = { turn: { index, timestamp: m.timestamp, prompt, files: [] }, byPath: new Map() };
      turns.push(current.turn);
      continue;
    }
    for (const tool of m.tools ?? []) {
      const kind = EDIT_TOOLS[tool.name];
      const input = tool.detail?.input;
      if (!kind || tool.isError || tool.result === null || !isObj(input)) continue;
      const file = str(input.file_path) || str(input.notebook_path);
      if (!file || !path.isAbsolute(file)) continue;
      if (!current) {
        index += 1;
        current = { turn: { index, timestamp: m.timestamp, prompt: '', files: [] }, byPath: new Map() };
        turns.push(current.turn);
      }
      const shown = isInside(file, cwd) ? path.relative(cwd, file) || path.basename(file) : file;
      const patch = transcriptPatch(kind, shown, input);
      const seen = current.byPath.get(file);
      if (seen) {
        if (seen.change !== kind && kind === 'write') seen.change = 'write';
        seen.diff = cap(`${seen.diff}${seen.diff.endsWith('\n') ? '' : '\n'}${patch.text}`, seen);
        seen.truncated ||= patch.truncated;
      } else if (current.byPath.size < MAX_FILES_PER_TURN) {
        const entry: TurnFileChange = {
          path: shown,
          change: kind,
          diff: '',
          source: 'transcript',
          truncated: patch.truncated,
        };
        entry.diff = cap(patch.text, entry);
        current.byPath.set(file, entry);
        current.turn.files.push(entry);
      }
    }
  }
  if (git) {
    for (const turn of turns)
      for (const f of turn.files) {
        const abs = path.isAbsolute(f.path) ? f.path : path.join(cwd, f.path);
        let diff = gitDiffs.get(abs);
        if (!diff) {
          diff = gitDiffOf(abs, cwd, git);
          gitDiffs.set(abs, diff);
        }
        const text = await diff;
        if (text) {
          f.source = 'git';
          f.truncated = false;
          f.diff = cap(text, f);
        }
      }
  }
  return turns.filter((t) => t.files.length > 0).reverse();
}

/**
 * `git diff HEAD` of one file that git lists as changed (tracked), else null. Only for a file
 * inside the session's directory: the repository may reach above it (past the allowed roots).
 */
async function gitDiffOf(abs: string, cwd: string, git: GitStatus): Promise<string | null> {
  const real = await fs.realpath(abs).catch(() => abs);
  if (!isInside(real, cwd) || !isInside(real, git.root) || git.head === null) return null;
  const rel = path.relative(git.root, real);
  const listed = git.files.find((f) => f.path === rel.split(path.sep).join('/'));
  if (!listed || listed.change === 'untracked') return null;
  const out = await runGit(git.root, [
    'diff',
    '--no-ext-diff',
    '--no-textconv',
    '--no-color',
    'HEAD',
    '--',
    `:(literal)${rel}`,
  ]);
  return out && out.stdout.trim() ? out.stdout : null;
}

/** The unified diff of one tool call from its input (a Write is shown as a new file: the old content is unknown). */
function transcriptPatch(kind: ChangeKind, shown: string, input: Obj): { text: string; truncated: boolean } {
  const pairs: Array<[string, string]> = [];
  if (kind === 'write') pairs.push(['', str(input.content)]);
  else if (kind === 'notebook') pairs.push(['', str(input.new_source)]);
  else if (Array.isArray(input.edits)) {
    for (const e of input.edits) if (isObj(e)) pairs.push([str(e.old_string), str(e.new_string)]);
  } else pairs.push([str(input.old_string), str(input.new_string)]);
  let truncated = false;
  const parts = pairs.map(([before, after]) => {
    if (before.length + after.length > MAX_DIFF_INPUT) {
      truncated = true;
      before = before.slice(0, MAX_DIFF_INPUT / 2);
      after = after.slice(0, MAX_DIFF_INPUT / 2);
    }
    const from = kind === 'edit' ? `a/${shown}` : '/dev/null';
    return createTwoFilesPatch(from, `b/${shown}`, withNewline(before), withNewline(after), undefined, undefined, {
      context: 3,
    });
  });
  return { text: parts.join(''), truncated };
}

const withNewline = (s: string): string => (s === '' || s.endsWith('\n') ? s : `${s}\n`);

function cap(text: string, f: { truncated: boolean }): string {
  if (text.length <= MAX_DIFF_CHARS) return text;
  f.truncated = true;
  return text.slice(0, MAX_DIFF_CHARS);
}
