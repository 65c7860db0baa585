import path from 'node:path';
import { defineMessages, type LocalizedText } from './i18n.js';

const messages = defineMessages({
  zh: {
    fix: '请使用 ["chainlesschain"]（默认，在 PATH 中查找）、它的绝对路径，或 ["node", "/path/to/chainlesschain/bin/chainlesschain.js"]',
    cc: '"cc" 是 Linux 和 macOS 上的 C 编译器，不是 ChainlessChain CLI；{fix}',
    bare: '"{name}" 会在 PATH 中查找，不是 ChainlessChain CLI（只有 "chainlesschain" 可以只写名字）；{fix}',
    relative: '"{name}" 是相对路径；{fix}',
    node: '"node" 后面必须是 CLI 的入口脚本（.js、.mjs 或 .cjs）；{fix}',
    empty: '程序名或参数不能为空；{fix}',
  },
  en: {
    fix: 'use ["chainlesschain"] (the default, found on PATH), its absolute path, or ["node", "/path/to/chainlesschain/bin/chainlesschain.js"]',
    cc: '"cc" is the C compiler on Linux and macOS, not the ChainlessChain CLI; {fix}',
    bare: '"{name}" would be looked up on PATH and is not the ChainlessChain CLI (only "chainlesschain" may be given by name); {fix}',
    relative: '"{name}" is a relative path; {fix}',
    node: '"node" must be followed by the CLI\'s entry script (.js, .mjs or .cjs); {fix}',
    empty: 'the program and its arguments must not be empty; {fix}',
  },
});

/**
 * The rule for `[ccexec] cli`, the argv prefix that runs the ChainlessChain CLI: its first word is
 * `chainlesschain` (looked up on PATH), an absolute path, or `node` followed by the CLI's entry
 * script (`.js`, `.mjs`, `.cjs`). Any other bare name is refused — above all `cc`, one of the CLI's
 * own bin names, which on Linux and macOS is the C compiler — as is a relative path. Returns why,
 * in both languages, or null when the value is fine.
 *
 * @example
 *   checkCcexecCli(['cc'])?.en // '"cc" is the C compiler on Linux and macOS, not the ChainlessChain CLI; use …'
 *   checkCcexecCli(['node', '/opt/cc/bin/chainlesschain.js']) // null
 */
export function checkCcexecCli(cli: readonly string[]): LocalizedText | null {
  const [program = '', entry] = cli;
  let key: 'cc' | 'bare' | 'relative' | 'node' | 'empty';
  if (cli.some((part) => part === '')) key = 'empty';
  else if (program === 'chainlesschain' || path.isAbsolute(program)) return null;
  else if (program === 'node') {
    if (entry !== undefined && /\.[cm]?js$/.test(entry)) return null;
    key = 'node';
  } else if (program === 'cc') key = 'cc';
  else key = program.includes('/') ? 'relative' : 'bare';
  const text = (lang: 'zh' | 'en') => {
    const t = messages(lang);
    return t(key, { name: program, fix: t('fix') });
  };
  return { zh: text('zh'), en: text('en') };
}
