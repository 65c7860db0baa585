import fs from 'node:fs';
import { defineMessages, type LocalizedText } from './i18n.js';
import { shellQuote } from './shell-quote.js';

const messages = defineMessages({
  zh: {
    exposed:
      '配置文件 {file} 的权限是 {mode}，其他用户可以读取或修改它（其中可能有飞书 app_secret、控制台 token 等密钥）。修复：chmod 600 {path}',
  },
  en: {
    exposed:
      '{file} has mode {mode}: other users can read or change it (it may hold secrets such as the Feishu app secret or the console token). Fix: chmod 600 {path}',
  },
});

/** What `configFileExposure` found: the file's mode (`0644`) and the warning with its fix, in both languages. */
export interface ConfigFileExposure {
  mode: string;
  text: LocalizedText;
}

/**
 * `config.toml` holds secrets (the Feishu app secret, the console token, `cli_proxy.token`), so
 * only its owner may read or write it. cc-linker writes it 0600, but a file the user wrote by hand
 * gets the umask's mode (0644): this says so, with the fix, when any group or other bit is set on
 * `file` (followed through a symlink). The file is the user's: it is reported, never changed. Null
 * when the file is missing, private, or on Windows (no POSIX modes).
 *
 * @example
 *   configFileExposure('/home/u/.cc-linker/config.toml')?.text.en // '… has mode 0644: … Fix: chmod 600 /home/u/.cc-linker/config.toml'
 */
export function configFileExposure(file: string, shown: string = file): ConfigFileExposure | null {
  if (process.platform === 'win32') return null;
  let mode: number;
  try {
    mode = fs.statSync(file).mode & 0o777;
  } catch {
    return null;
  }
  if ((mode & 0o077) === 0) return null;
  const octal = `0${mode.toString(8).padStart(3, '0')}`;
  const params = { file: shown, mode: octal, path: shellQuote(file) };
  return { mode: octal, text: { zh: messages('zh')('exposed', params), en: messages('en')('exposed', params) } };
}
