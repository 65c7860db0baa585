import type { Language, Translator } from '../../core/i18n.js';
import type { Output } from '../context/output.js';
import { Prompter, type PromptIo } from './prompter.js';
import { SETUP_USAGE_EXIT, SetupError } from './setup-error.js';
import { setupMessages, type SetupMessageKey } from './setup-messages.js';

/** The streams of a setup run and whether questions may be asked on them. */
export interface SetupIo extends PromptIo {
  /** Whether a person can answer (stdin is a terminal, or a test's scripted stream). */
  interactive: boolean;
}

/** One question: where a given answer comes from, how it is shown and parsed. */
export interface Question<T> {
  /** The flag that answers it, named in errors (`--app-id`). */
  flag: string;
  /** The flag's value, when given. */
  given?: string;
  /** The environment variable that answers it, when there is one. */
  env?: string;
  /** The current value (from the file, else the default); an empty string or list = none. */
  current: T;
  /** How `current` is shown as the default in `[brackets]`. */
  show: (value: T) => string;
  ask: SetupMessageKey | Said;
  /** Whether a non-empty answer is needed. */
  required: boolean;
  /** Turns a typed or given answer into a value, or says (localized) what is wrong with it. */
  parse: (text: string) => Promise<{ value: T } | { problem: string }>;
  /** What `-` means for an optional answer (clear it). */
  cleared?: T;
}

/** A text already in the session's language (a chat app's own catalog), instead of a setup message key. */
export interface Said {
  text: string;
}

/** The texts of a secret question: asked, asked when Enter keeps the current one, and "cannot be empty". */
export interface SecretTexts {
  ask: string;
  keep: string;
  required: string;
}

const isEmpty = (v: unknown): boolean => v === '' || v === undefined || (Array.isArray(v) && v.length === 0);

/**
 * The conversation of one `cc-linker setup` run: its language (which the first answer may
 * change), whether it is the full wizard (ask everything) or answers came as flags (ask only what
 * is required and missing, and only when someone can answer), and where notes go (the prompt
 * stream when interactive, stderr otherwise).
 *
 * Answer precedence for a question: flag → environment variable (a default, not an answer, in
 * the full wizard) → typed answer → current value → "missing" error naming the flag.
 */
export class SetupSession {
  lang: Language;
  t: Translator<SetupMessageKey>;
  readonly prompter: Prompter | undefined;

  constructor(
    lang: Language,
    /** Ask every question (no answer flags were given and someone can answer). */
    readonly full: boolean,
    io: SetupIo & { ask: boolean },
    private readonly out: Output,
    readonly env: NodeJS.ProcessEnv,
  ) {
    this.lang = lang;
    this.t = setupMessages(lang);
    this.prompter = io.ask
      ? new Prompter(io, (reason) =>
          this.error(
            'SETUP_INPUT',
            reason === 'interrupt' ? 'cancelled' : 'inputEnded',
            {},
            reason === 'interrupt' ? 130 : 1,
          ),
        )
      : undefined;
  }

  /** Switches the language for everything said from now on. */
  setLanguage(lang: Language): void {
    this.lang = lang;
    this.t = setupMessages(lang);
  }

  /** An explanation or warning: on the prompt stream in a conversation, else on stderr. */
  note(text: string): void {
    if (this.prompter) this.prompter.say(text);
    else this.out.progress(text);
  }

  /** A localized `SetupError` (throw it). */
  error(
    code: ConstructorParameters<typeof SetupError>[0],
    key: SetupMessageKey,
    params: Record<string, string> = {},
    exitCode = 1,
  ): SetupError {
    return new SetupError(code, this.t(key, params), { exitCode });
  }

  /** A yes/no question; Enter takes the default. Only call when `prompter` is set. */
  async confirm(question: SetupMessageKey | Said, defaultYes: boolean): Promise<boolean> {
    const p = this.requirePrompter();
    for (;;) {
      const answer = (
        await p.ask(`${this.textOf(question)} ${this.t(defaultYes ? 'yesNoDefaultYes' : 'yesNoDefaultNo')}`)
      ).toLowerCase();
      if (answer === '') return defaultYes;
      if (['y', 'yes', '是'].includes(answer)) return true;
      if (['n', 'no', '否'].includes(answer)) return false;
      p.say(`  ${this.t('answerYesNo')}`);
    }
  }

  /** Resolves one answer (see the class comment for the order). */
  async question<T>(q: Question<T>): Promise<T> {
    const fromEnv = q.env ? this.env[q.env]?.trim() || undefined : undefined;
    const source =
      q.given !== undefined
        ? { text: q.given, name: q.flag }
        : fromEnv !== undefined && !this.full
          ? { text: fromEnv, name: q.env as string }
          : undefined;
    if (source) {
      const r = await q.parse(source.text.trim());
      if ('problem' in r)
        throw this.error('SETUP_INVALID', 'invalidAnswer', { flag: source.name, problem: r.problem }, SETUP_USAGE_EXIT);
      return r.value;
    }
    let current = q.current;
    if (this.full && fromEnv !== undefined) {
      const r = await q.parse(fromEnv);
      if ('value' in r) current = r.value;
    }
    const has = !isEmpty(current);
    if (this.prompter && (this.full || (q.required && !has))) {
      for (;;) {
        const text = await this.prompter.ask(`${this.textOf(q.ask)}${has ? ` [${q.show(current)}]` : ''}`);
        if (text === '' && (has || !q.required)) return current;
        if (text === '-' && q.cleared !== undefined && !q.required) return q.cleared;
        const r = await q.parse(text);
        if ('value' in r) return r.value;
        this.prompter.say(`  ${r.problem}`);
      }
    }
    if (has || !q.required) return current;
    throw this.error(
      'SETUP_MISSING',
      q.env ? 'missingAnswerEnv' : 'missingAnswer',
      { flag: q.flag, env: q.env ?? '' },
      SETUP_USAGE_EXIT,
    );
  }

  /**
   * Reads a secret without echo, re-asking while empty unless `keepable`; '' = keep the current
   * one. The texts default to the Feishu App Secret's.
   */
  async secret(keepable: boolean, texts?: SecretTexts): Promise<string> {
    const p = this.requirePrompter();
    const said = texts ?? {
      ask: this.t('askSecret'),
      keep: this.t('askSecretKeep'),
      required: this.t('secretRequired'),
    };
    for (;;) {
      const value = await p.askSecret(keepable ? said.keep : said.ask);
      if (value !== '' || keepable) return value;
      p.say(`  ${said.required}`);
    }
  }

  close(): void {
    this.prompter?.close();
  }

  private textOf(question: SetupMessageKey | Said): string {
    return typeof question === 'string' ? this.t(question) : question.text;
  }

  private requirePrompter(): Prompter {
    if (!this.prompter) throw new Error('setup asked a question without a prompter');
    return this.prompter;
  }
}
