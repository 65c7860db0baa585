import type { SecretAnswer } from './ask-feishu.js';
import { SETUP_USAGE_EXIT } from './setup-error.js';
import type { SecretTexts, SetupSession } from './setup-session.js';

/** One secret a chat app needs (a bot token, an app secret) and where its answer may come from. */
export interface SecretQuestion {
  /** The flag that answers it (`--telegram-bot-token`) and its value when given. */
  flag: string;
  given: string | undefined;
  /** The variable that wins over the file at runtime, and its value when set. */
  env: string;
  envValue: string | undefined;
  /** What the file holds now ('' = nothing). */
  fileValue: string;
  /** The first ask of this run (after a refusal it is asked again, without the flag or the variable). */
  first: boolean;
  /** The shape the config schema accepts, not empty. */
  valid(value: string): boolean;
  /** The sentences, in the user's language. */
  texts: SecretTexts & { invalid: string; useEnv: string };
  /** The usage error for a flag or variable (`where`) that is empty or malformed. */
  refuse(where: string, problem: 'required' | 'invalid'): Error;
}

/**
 * A secret's answer: a given flag (checked, written); in the full wizard the variable (if it is well
 * formed and the user takes it) or typed hidden, Enter keeping the file's, a malformed one asked
 * again; otherwise what cc-linker will use at runtime — the variable over the file — or typed when
 * there is a terminal, else a usage error naming the flag and the variable.
 */
export async function askSecret(s: SetupSession, q: SecretQuestion): Promise<SecretAnswer> {
  if (q.first && q.given !== undefined) {
    const value = q.given.trim();
    if (!q.valid(value)) throw q.refuse(q.flag, value === '' ? 'required' : 'invalid');
    return { kind: 'write', value };
  }
  const typed = async (keepable: boolean): Promise<SecretAnswer> => {
    for (;;) {
      const value = await s.secret(keepable, q.texts);
      if (value === '') return { kind: 'keep', value: q.fileValue };
      if (q.valid(value)) return { kind: 'write', value };
      s.note(`  ${q.texts.invalid}`);
    }
  };
  if (s.full && s.prompter) {
    // A malformed variable is not offered (cc-linker could not start with it anyway).
    if (q.first && q.envValue !== undefined && q.valid(q.envValue) && (await s.confirm({ text: q.texts.useEnv }, true)))
      return { kind: 'env', value: q.envValue };
    return typed(q.first && q.fileValue !== '');
  }
  // Not the full wizard: at runtime the environment wins over the file, so check what will be used.
  if (q.envValue !== undefined && !q.valid(q.envValue)) throw q.refuse(q.env, 'invalid');
  if (q.fileValue !== '') return { kind: 'keep', value: q.envValue ?? q.fileValue };
  if (q.envValue !== undefined) return { kind: 'env', value: q.envValue };
  if (s.prompter) return typed(false);
  throw s.error('SETUP_MISSING', 'missingAnswerEnv', { flag: q.flag, env: q.env }, SETUP_USAGE_EXIT);
}
