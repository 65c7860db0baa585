/**
 * Secret redaction shared by the logger and every error path.
 *
 * Known secret values (app secret, tokens, API keys) are registered once at start-up; any string that
 * leaves the process through a log line, an error message or a web page is passed through `redact`.
 * Common key shapes are masked even when nobody registered them.
 */
const registered = new Set<string>();

const KEY_SHAPES: RegExp[] = [
  /sk-ant-[A-Za-z0-9_-]{8,}/g,
  /sk-[A-Za-z0-9_-]{16,}/g,
  /\b(t|u)-[A-Za-z0-9_.-]{20,}\b/g, // Feishu tenant/user access tokens
  /(Bearer\s+)[A-Za-z0-9._~+/=-]{8,}/gi,
];

/** Registers a secret value so that it is masked wherever it appears. Short values are ignored. */
export function registerSecret(value: string | undefined | null): void {
  if (value && value.length >= 6) registered.add(value);
}

/** Forgets all registered secrets (tests only). */
export function clearSecrets(): void {
  registered.clear();
}

/** Returns `text` with every registered secret and every key-shaped token replaced by `***`. */
export function redact(text: string): string {
  let out = text;
  for (const secret of registered) {
    if (out.includes(secret)) out = out.split(secret).join('***');
  }
  for (const shape of KEY_SHAPES) {
    out = out.replace(shape, (match, prefix?: string) =>
      typeof prefix === 'string' && /^Bearer/i.test(prefix) ? `${prefix}***` : '***',
    );
  }
  return out;
}

/** Names of config keys / environment variables whose values are secrets. */
export function isSecretName(name: string): boolean {
  return /(secret|token|api_?key|password|passwd|credential|private_?key)/i.test(name);
}
