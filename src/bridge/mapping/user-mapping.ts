import { randomBytes } from 'node:crypto';
import { VersionedDoc } from '../../store/versioned-doc.js';
import type { ClaimOutcome, MappingEntry, UserMappingData } from './mapping-entry.js';
import { validateMapping } from './validate-mapping.js';

export type { ClaimOutcome, MappingEntry, UserMappingData } from './mapping-entry.js';

/** Schema number written to `user-mapping.json`. */
export const USER_MAPPING_SCHEMA = 1;

/**
 * The user → target mapping, shared by the bot, the reconciler and CLI commands through a
 * compare-and-swap document, so two racing messages can never both create a new session (the
 * pending slot is claimed by one message id). Every change gets a fresh `casToken` on the entry
 * it touches.
 *
 * @example
 *   const mapping = new UserMapping(paths.userMappingFile);
 *   const outcome = await mapping.claimForMessage(openId, messageId); // when the message is routed
 *   // … Claude returned a session id:
 *   await mapping.completeClaim(openId, messageId, sessionId, cwd);
 */
export class UserMapping {
  private readonly doc: VersionedDoc<UserMappingData>;
  private readonly now: () => Date;

  constructor(file: string, options: { now?: () => Date } = {}) {
    this.doc = new VersionedDoc<UserMappingData>(file, {
      schema: USER_MAPPING_SCHEMA,
      defaultValue: emptyMapping,
      validate: validateMapping,
    });
    this.now = options.now ?? (() => new Date());
  }

  /** The whole document (throws `StoreError` for a corrupt or newer-schema file). */
  async read(): Promise<UserMappingData> {
    return (await this.doc.read()).data;
  }

  /** The document with its version, for callers that record which version they acted on. */
  async readVersioned(): Promise<{ version: number; data: UserMappingData }> {
    return this.doc.read();
  }

  async get(userId: string): Promise<MappingEntry | null> {
    return (await this.read()).entries[userId] ?? null;
  }

  /**
   * Atomic (CAS) routing of one plain text, when the dispatcher routes it. A `pending_new_session`
   * slot is taken by exactly one message id, even across processes; the same message id asking
   * again (routed again after a crash, a retry) gets `new` again without a write.
   */
  async claimForMessage(userId: string, messageId: string): Promise<ClaimOutcome> {
    let outcome: ClaimOutcome = { kind: 'none' };
    const result = await this.doc.update((data) => {
      const entry = data.entries[userId];
      if (!entry) {
        outcome = { kind: 'none' };
        return undefined;
      }
      if (entry.type === 'session') {
        outcome = withModel(
          { kind: 'session', sessionId: entry.sessionUuid, cwd: entry.cwd, ...agentOf(entry) },
          entry.defaultProvider,
        );
        return undefined;
      }
      if (entry.type === 'pending_new_session_claimed') {
        outcome =
          entry.claimedByMessageId === messageId
            ? withModel({ kind: 'new', cwd: entry.cwd, ...agentOf(entry) }, entry.model)
            : { kind: 'creating', claimedByMessageId: entry.claimedByMessageId };
        return undefined;
      }
      const at = this.stamp();
      data.entries[userId] = claimedFrom(entry, messageId, at);
      outcome = withModel({ kind: 'new', cwd: entry.cwd, ...agentOf(entry) }, entry.model);
      return data;
    });
    return { ...outcome, mappingVersion: result.version };
  }

  /**
   * `/new <cwd> -- prompt`: the mapping becomes `pending_new_session_claimed` by this message in
   * one CAS, whatever it was (an explicit `/new` wins over an older target). `model` undefined keeps
   * the user's current default model (for the same agent). `agent` absent = Claude Code.
   */
  async claimNewDirectly(
    userId: string,
    messageId: string,
    cwd: string,
    model?: string,
    agent?: string,
  ): Promise<void> {
    await this.doc.update((data) => {
      const prev = data.entries[userId];
      if (prev?.type === 'pending_new_session_claimed' && prev.claimedByMessageId === messageId && prev.cwd === cwd)
        return undefined;
      const at = this.stamp();
      data.entries[userId] = {
        type: 'pending_new_session_claimed',
        cwd,
        createdAt: at,
        casToken: newToken(),
        claimedByMessageId: messageId,
        claimedAt: at,
        lastActiveAt: at,
        model: model !== undefined ? model : carriedModel(prev, agent),
        ...agentField(agent),
      };
      return data;
    });
  }

  /** `/switch` and the select paths: the user now talks to this session. `model` undefined keeps the default. */
  async setSession(
    userId: string,
    s: { sessionUuid: string; cwd: string; model?: string | null; agent?: string },
  ): Promise<void> {
    await this.doc.update((data) => {
      const prev = data.entries[userId];
      const at = this.stamp();
      const sameSession = prev?.type === 'session' && prev.sessionUuid === s.sessionUuid;
      data.entries[userId] = {
        type: 'session',
        sessionUuid: s.sessionUuid,
        cwd: s.cwd,
        createdAt: sameSession ? prev.createdAt : at,
        casToken: newToken(),
        lastActiveAt: at,
        defaultProvider: s.model !== undefined ? s.model : carriedModel(prev, s.agent),
        ...agentField(s.agent),
      };
      return data;
    });
  }

  /** `/new <cwd>` without a prompt, or a `select_dir` click: the next plain text creates the session here. */
  async setPendingNew(userId: string, p: { cwd: string; model?: string | null; agent?: string }): Promise<void> {
    await this.doc.update((data) => {
      const prev = data.entries[userId];
      const at = this.stamp();
      data.entries[userId] = {
        type: 'pending_new_session',
        cwd: p.cwd,
        createdAt: at,
        casToken: newToken(),
        lastActiveAt: at,
        model: p.model !== undefined ? p.model : carriedModel(prev, p.agent),
        ...agentField(p.agent),
      };
      return data;
    });
  }

  /**
   * Claude returned the new session's id: claimed-by-`messageId` → `session`. Returns false (and
   * changes nothing) when the slot is no longer this message's claim — the user moved on with
   * `/switch` or `/new`. Returns true without writing when the mapping already points at this
   * session (a retry after a crash between the write and the caller's next step).
   */
  async completeClaim(userId: string, messageId: string, sessionUuid: string, cwd: string): Promise<boolean> {
    let done = false;
    await this.doc.update((data) => {
      const entry = data.entries[userId];
      if (entry?.type === 'session' && entry.sessionUuid === sessionUuid) {
        done = true;
        return undefined;
      }
      if (entry?.type !== 'pending_new_session_claimed' || entry.claimedByMessageId !== messageId) {
        done = false;
        return undefined;
      }
      const at = this.stamp();
      data.entries[userId] = {
        type: 'session',
        sessionUuid,
        cwd,
        createdAt: at,
        casToken: newToken(),
        lastActiveAt: at,
        defaultProvider: entry.model ?? null,
        ...agentField(entry.agent),
      };
      done = true;
      return data;
    });
    return done;
  }

  /** A failure before any session id exists: claimed-by-`messageId` → `pending_new_session`, so the user can retry. */
  async rollbackClaim(userId: string, messageId: string): Promise<boolean> {
    let done = false;
    await this.doc.update((data) => {
      const entry = data.entries[userId];
      if (entry?.type !== 'pending_new_session_claimed' || entry.claimedByMessageId !== messageId) {
        done = false;
        return undefined;
      }
      data.entries[userId] = {
        type: 'pending_new_session',
        cwd: entry.cwd,
        createdAt: entry.createdAt,
        casToken: newToken(),
        lastActiveAt: this.stamp(),
        model: entry.model ?? null,
        ...agentField(entry.agent),
      };
      done = true;
      return data;
    });
    return done;
  }

  /**
   * `/model`: sets (or with null clears) the default model on the user's current entry. Returns
   * false when the user has no entry to keep it on.
   */
  async setDefaultModel(userId: string, model: string | null): Promise<boolean> {
    let done = false;
    await this.doc.update((data) => {
      const entry = data.entries[userId];
      if (!entry) {
        done = false;
        return undefined;
      }
      data.entries[userId] =
        entry.type === 'session'
          ? { ...entry, defaultProvider: model, casToken: newToken() }
          : { ...entry, model, casToken: newToken() };
      done = true;
      return data;
    });
    return done;
  }

  /** `/agent <name>`: the agent `/new` uses for this user from now on; null returns to `agents.default`. */
  async setDefaultAgent(userId: string, agent: string | null): Promise<void> {
    await this.doc.update((data) => {
      const agents = { ...(data.defaultAgents ?? {}) };
      if (agent === null) delete agents[userId];
      else agents[userId] = agent;
      data.defaultAgents = agents;
      return data;
    });
  }

  /** The user's own default agent, or null when they never chose one. */
  async defaultAgentOf(userId: string): Promise<string | null> {
    return (await this.read()).defaultAgents?.[userId] ?? null;
  }

  /**
   * Removes the user's target — for the reconciler when it points at a session that no longer
   * exists. With `expectedCasToken`, only if the entry is still the one the caller judged.
   */
  async clear(userId: string, expectedCasToken?: string): Promise<boolean> {
    let done = false;
    await this.doc.update((data) => {
      const entry = data.entries[userId];
      if (!entry || (expectedCasToken !== undefined && entry.casToken !== expectedCasToken)) {
        done = false;
        return undefined;
      }
      delete data.entries[userId];
      done = true;
      return data;
    });
    return done;
  }

  /**
   * Binds the owner when none is bound yet (`feishu_bot.allow_auto_bind_owner`). True when
   * `openId` is (now) the owner, false when someone else already is.
   */
  async bindOwner(openId: string): Promise<boolean> {
    const result = await this.doc.update((data) => {
      if (data.ownerOpenId !== null) return undefined;
      data.ownerOpenId = openId;
      return data;
    });
    return result.data.ownerOpenId === openId;
  }

  /**
   * Binds the owner of `channel` (one with its own user ids, `telegram.allow_auto_bind_owner`)
   * when none is bound yet. True when `userId` is (now) that channel's owner.
   */
  async bindChannelOwner(channel: string, userId: string): Promise<boolean> {
    const result = await this.doc.update((data) => {
      if (data.channelOwners?.[channel] !== undefined) return undefined;
      data.channelOwners = { ...data.channelOwners, [channel]: userId };
      return data;
    });
    return result.data.channelOwners?.[channel] === userId;
  }

  private stamp(): string {
    return this.now().toISOString();
  }
}

function emptyMapping(): UserMappingData {
  return { ownerOpenId: null, entries: {} };
}

function newToken(): string {
  return randomBytes(6).toString('hex');
}

/** The user's default model kept on a mapping entry (`defaultProvider` of a session, `model` of a pending slot). */
export function defaultModelOf(entry: MappingEntry | null | undefined): string | null {
  if (!entry) return null;
  return (entry.type === 'session' ? entry.defaultProvider : entry.model) ?? null;
}

/** The agent of a mapping entry (absent or null = Claude Code). */
export function entryAgent(entry: MappingEntry | null | undefined): string | undefined {
  return entry?.agent ?? undefined;
}

/** `{ agent }` when an entry names one; Claude Code's entries stay as they always were. */
function agentField(agent: string | null | undefined): { agent?: string } {
  return agent ? { agent } : {};
}

function agentOf(entry: MappingEntry): { agent?: string } {
  return agentField(entry.agent);
}

/** The previous entry's model, kept only when the new target runs the same agent. */
function carriedModel(prev: MappingEntry | undefined, agent: string | undefined): string | null {
  return entryAgent(prev) === (agent || undefined) ? defaultModelOf(prev) : null;
}

function withModel<T extends ClaimOutcome>(outcome: T, model: string | null | undefined): T {
  return model ? { ...outcome, model } : outcome;
}

function claimedFrom(
  entry: Extract<MappingEntry, { type: 'pending_new_session' }>,
  messageId: string,
  at: string,
): MappingEntry {
  return {
    type: 'pending_new_session_claimed',
    cwd: entry.cwd,
    createdAt: entry.createdAt,
    casToken: newToken(),
    claimedByMessageId: messageId,
    claimedAt: at,
    lastActiveAt: at,
    model: entry.model ?? null,
    ...agentField(entry.agent),
  };
}
