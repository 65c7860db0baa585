import type { ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { checkWorkingDirectory, type DirSafetyOptions } from '../../../bridge/commands/dir-safety.js';
import type { Language } from '../../../core/i18n.js';
import type { Paths } from '../../../core/paths.js';
import { readStoredTranscript, type StorageDirs } from '../../../sessions/present/read-stored-transcript.js';
import { readRegistry } from '../../../sessions/registry/registry.js';
import {
  BrowseError,
  browseFiles,
  openRawFile,
  type BrowseResult,
  type DirCheck,
} from '../../../workspace/browse-files.js';
import { gitStatus, type GitStatus } from '../../../workspace/git-status.js';
import { turnChanges, type TurnChanges } from '../../../workspace/turn-changes.js';
import { attachmentDisposition } from '../http/content-disposition.js';
import { HttpError } from '../http/http-io.js';
import { workspaceMessages } from './workspace-messages.js';

/** What `GET /api/sessions/:id/changes` answers. */
export interface ChangesBody {
  /** The directory's git state now; null when it is not a git work tree or is outside the allowed roots. */
  git: Pick<GitStatus, 'branch' | 'detached' | 'upstream' | 'ahead' | 'behind' | 'files' | 'more'> | null;
  turns: TurnChanges[];
}

/** A session's directory as the console shows it. Each returns null for an unknown session. */
export interface ConsoleWorkspace {
  changes(id: string, policy: DirSafetyOptions): Promise<ChangesBody | null>;
  browse(id: string, rel: string, policy: DirSafetyOptions): Promise<BrowseResult | null>;
  /** Streams a file as a download (`application/octet-stream`, attachment, nosniff); false for an unknown session. */
  download(id: string, rel: string, policy: DirSafetyOptions, res: ServerResponse): Promise<boolean>;
}

const STATUS: Record<BrowseError['code'], number> = {
  invalid: 400,
  'not-found': 404,
  outside: 403,
  denied: 403,
  special: 403,
  'git-internal': 403,
};

/**
 * `ConsoleWorkspace` over the registry (the session's recorded `cwd`), its transcript (read only
 * from the agent's storage directory, tool inputs whole) and `workspace/`. Git is asked only when
 * the directory passes the directory picker's own check (`checkWorkingDirectory`: inside
 * `security.allowed_roots`, outside the denied roots); the file browser judges every path with it.
 * A refusal becomes an `HttpError` with a zh/en message.
 */
export function createConsoleWorkspace(
  paths: Pick<Paths, 'registryFile' | 'registryBackupDir' | 'locksDir'> & StorageDirs,
  opts: { maxLineBytes?: number; maxFileSize?: number } = {},
): ConsoleWorkspace {
  const entry = async (id: string) => (await readRegistry(paths)).registry.sessions[id] ?? null;
  const checker =
    (policy: DirSafetyOptions): DirCheck =>
    (dir) =>
      checkWorkingDirectory(dir, policy);
  return {
    async changes(id, policy) {
      const e = await entry(id);
      if (!e) return null;
      const allowed = e.cwd ? await checkWorkingDirectory(e.cwd, policy) : null;
      const git = allowed?.ok ? await gitStatus(allowed.realPath) : null;
      const messages = await readStoredTranscript(id, e, paths, {
        thinking: false,
        detail: true,
        ...(opts.maxLineBytes ? { maxLineBytes: opts.maxLineBytes } : {}),
        ...(opts.maxFileSize ? { maxFileSize: opts.maxFileSize } : {}),
      });
      const turns = messages ? await turnChanges(messages, allowed?.ok ? allowed.realPath : e.cwd, git) : [];
      return {
        git: git && {
          branch: git.branch,
          detached: git.detached,
          upstream: git.upstream,
          ahead: git.ahead,
          behind: git.behind,
          files: git.files,
          more: git.more,
        },
        turns,
      };
    },
    async browse(id, rel, policy) {
      const e = await entry(id);
      if (!e) return null;
      return refused(policy.lang, () => browseFiles(e.cwd, rel, checker(policy)));
    },
    async download(id, rel, policy, res) {
      const e = await entry(id);
      if (!e) return false;
      const file = await refused(policy.lang, () => openRawFile(e.cwd, rel, checker(policy)));
      res.writeHead(200, {
        'Content-Type': 'application/octet-stream',
        'Content-Length': file.size,
        'Content-Disposition': attachmentDisposition(file.name),
        'X-Content-Type-Options': 'nosniff',
        'Cache-Control': 'no-store',
      });
      await pipeline(file.stream, res).catch(() => res.destroy());
      return true;
    },
  };
}

/** Runs `fn`, turning a `BrowseError` into an `HttpError` with the page's language. */
async function refused<T>(lang: Language, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (!(err instanceof BrowseError)) throw err;
    const reason = err.code === 'denied' ? err.message : undefined;
    throw new HttpError(STATUS[err.code], workspaceMessages(lang)(err.code, reason ? { reason } : {}));
  }
}
