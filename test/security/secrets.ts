import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Distinctive fake secrets for the security tests, fresh per run. Each value is `<LABEL>-<24 hex>`:
 * no `sk-` prefix or other key shape, so a redaction that only works by shape would NOT hide them —
 * a test passes only when the value was registered with the redactor or never written at all.
 */
export interface PlantedSecrets {
  /** `feishu_bot.app_secret` in config.toml (shadowed by the environment variable below). */
  feishuSecretInFile: string;
  /** `CC_LINKER_FEISHU_APP_SECRET`: the app secret actually used (the fake Feishu server checks it). */
  feishuSecret: string;
  /** `web.token` in config.toml. */
  webToken: string;
  /** `cli_proxy.token` in config.toml (registered, otherwise unused). */
  cliProxyToken: string;
  /** `OPENAI_API_KEY`, via `api_key_env` of provider `openai`. */
  openaiKey: string;
  /** `ARK_API_KEY`, via provider `doubao`. */
  arkKey: string;
  /** `ANTHROPIC_API_KEY`, via provider `anthropic` (Claude Code may see it). */
  anthropicKey: string;
  /** `ACME_LLM_KEY`: a key whose variable name matches no secret pattern, via provider `acme`. */
  acmeKey: string;
  /** `MY_SERVICE_TOKEN`: an unrelated `*_TOKEN` in the environment. */
  serviceToken: string;
  /** `MY_APP_SECRET`: an unrelated `*_SECRET` in the environment. */
  appSecretVar: string;
  /** `AWS_SECRET_ACCESS_KEY` and `AWS_SESSION_TOKEN`: cloud credentials (no Bedrock selected). */
  awsSecretKey: string;
  awsSessionToken: string;
  /** `GOOGLE_APPLICATION_CREDENTIALS`: the path of a service-account file (no Vertex selected). */
  googleCredentials: string;
  /** `GITHUB_TOKEN`, `NPM_TOKEN`, `DB_PASSWORD`: what a developer's shell commonly holds. */
  githubToken: string;
  npmToken: string;
  dbPassword: string;
}

/** New secrets (random suffixes, so nothing in the repository or a previous run can contain them). */
export function plantSecrets(): PlantedSecrets {
  const v = (label: string) => `${label}-${randomBytes(12).toString('hex')}`;
  return {
    feishuSecretInFile: v('FEISHUFILESECRET'),
    feishuSecret: v('FEISHUENVSECRET'),
    webToken: v('WEBTOKEN'),
    cliProxyToken: v('CLIPROXYTOKEN'),
    openaiKey: v('OPENAIKEY'),
    arkKey: v('ARKKEY'),
    anthropicKey: v('ANTHROPICKEY'),
    acmeKey: v('ACMEKEY'),
    serviceToken: v('SERVICETOKEN'),
    appSecretVar: v('APPSECRETVAR'),
    awsSecretKey: v('AWSSECRETKEY'),
    awsSessionToken: v('AWSSESSIONTOKEN'),
    googleCredentials: v('/secrets/GOOGLECREDENTIALS'),
    githubToken: v('GITHUBTOKEN'),
    npmToken: v('NPMTOKEN'),
    dbPassword: v('DBPASSWORD'),
  };
}

/** The environment variables that carry the secrets (what a secret-free child env must not have). */
export function secretEnv(s: PlantedSecrets): Record<string, string> {
  return {
    CC_LINKER_FEISHU_APP_SECRET: s.feishuSecret,
    OPENAI_API_KEY: s.openaiKey,
    ARK_API_KEY: s.arkKey,
    ANTHROPIC_API_KEY: s.anthropicKey,
    ACME_LLM_KEY: s.acmeKey,
    MY_SERVICE_TOKEN: s.serviceToken,
    MY_APP_SECRET: s.appSecretVar,
    AWS_SECRET_ACCESS_KEY: s.awsSecretKey,
    AWS_SESSION_TOKEN: s.awsSessionToken,
    GOOGLE_APPLICATION_CREDENTIALS: s.googleCredentials,
    GITHUB_TOKEN: s.githubToken,
    NPM_TOKEN: s.npmToken,
    DB_PASSWORD: s.dbPassword,
  };
}

/**
 * The names of the planted secrets found in `text`. A value counts as found when the whole value
 * or its random part (or the first half of it) appears, so a server or error message that echoes
 * part of a key is caught too.
 */
export function findSecrets(
  text: string,
  s: PlantedSecrets,
  only?: ReadonlyArray<keyof PlantedSecrets>,
): Array<keyof PlantedSecrets> {
  const found: Array<keyof PlantedSecrets> = [];
  for (const name of only ?? (Object.keys(s) as Array<keyof PlantedSecrets>)) {
    const value = s[name];
    const random = value.slice(value.lastIndexOf('-') + 1);
    if (text.includes(value) || text.includes(random) || text.includes(random.slice(0, 12))) found.push(name);
  }
  return found;
}

/** Every regular file under `dir` (symlinks not followed), with paths relative to `dir`. */
export function walkFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) out.push(path.relative(dir, p));
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return out.sort();
}

/** Every entry (directories included, symlinks as themselves) under `dir`, relative paths. */
export function walkEntries(dir: string): Array<{ rel: string; kind: 'dir' | 'file' | 'other'; mode: number }> {
  const out: Array<{ rel: string; kind: 'dir' | 'file' | 'other'; mode: number }> = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      const st = fs.lstatSync(p);
      const kind = st.isDirectory() ? 'dir' : st.isFile() ? 'file' : 'other';
      out.push({ rel: path.relative(dir, p), kind, mode: st.mode & 0o777 });
      if (kind === 'dir') walk(p);
    }
  };
  walk(dir);
  return out.sort((a, b) => a.rel.localeCompare(b.rel));
}
