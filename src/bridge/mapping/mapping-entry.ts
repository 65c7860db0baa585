/**
 * What one chat user is talking to: an existing session, a directory waiting for its first message
 * (`pending_new_session`, a one-shot slot), or that slot already claimed by one queued message whose
 * run has no session id yet.
 *
 * `agent` is the coding agent of the session or of the session to create (absent = Claude Code).
 * `defaultProvider` (session) and `model` (pending) hold the user's default model; it is carried
 * over when the target changes to the same agent, so `/model` survives `/switch` and `/new`, and
 * dropped when the agent changes (one agent's model names mean nothing to another).
 */
export type MappingEntry =
  | {
      type: 'session';
      sessionUuid: string;
      cwd: string;
      createdAt: string;
      casToken: string;
      lastActiveAt: string;
      defaultProvider?: string | null;
      agent?: string | null;
    }
  | {
      type: 'pending_new_session';
      cwd: string;
      createdAt: string;
      casToken: string;
      lastActiveAt: string;
      model?: string | null;
      agent?: string | null;
    }
  | {
      type: 'pending_new_session_claimed';
      cwd: string;
      createdAt: string;
      casToken: string;
      claimedByMessageId: string;
      claimedAt: string;
      lastActiveAt: string;
      model?: string | null;
      agent?: string | null;
    };

/** The `data` of `user-mapping.json` (inside the VersionedDoc envelope `{version, schema, data}`). */
export interface UserMappingData {
  /** The one user this private bot serves; null until configured or auto-bound. */
  ownerOpenId: string | null;
  entries: Record<string, MappingEntry>;
  /** Each user's default agent for `/new` (`/agent <name>`); absent = `agents.default`. */
  defaultAgents?: Record<string, string>;
  /**
   * The owner auto-bound on a channel with its own user ids (`telegram`), by channel id; the
   * Feishu owner stays `ownerOpenId`. Absent = none bound.
   */
  channelOwners?: Record<string, string>;
}

/**
 * Where one plain text goes, decided once when the dispatcher routes it (the target snapshot's source).
 * `mappingVersion` is the document version the decision was made at (for logs and the snapshot).
 */
export type ClaimOutcome =
  | { kind: 'session'; sessionId: string; cwd: string; model?: string; agent?: string; mappingVersion?: number }
  /** This message claimed the pending slot (or re-claims idempotently: same messageId). */
  | { kind: 'new'; cwd: string; model?: string; agent?: string; mappingVersion?: number }
  /** Another message already claimed it → reply "新会话正在创建…". */
  | { kind: 'creating'; claimedByMessageId: string; mappingVersion?: number }
  /** No target → guidance reply. */
  | { kind: 'none'; mappingVersion?: number };
