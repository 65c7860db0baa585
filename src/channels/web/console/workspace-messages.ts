import { defineMessages } from '../../../core/i18n.js';

const s = (v: string | number | undefined): string => (v === undefined ? '' : String(v));

/** The file browser's refusals (one per `BrowseRefusal`), zh (default) and en; `reason` is the path policy's own text. */
export const workspaceMessages = defineMessages({
  zh: {
    invalid: '路径无效（不能含 ..、绝对路径或反斜杠）。',
    'not-found': '文件或目录不存在。',
    outside: '该路径（或它指向的位置）在会话目录之外，不能浏览。',
    denied: (p) => `该目录不在允许浏览的范围内：${s(p.reason)}`,
    special: '这不是普通文件或目录（管道、设备或套接字），不能打开。',
    'git-internal': '.git 目录的内容不在浏览器中显示。',
  },
  en: {
    invalid: 'Invalid path (no .., absolute path or backslash).',
    'not-found': 'No such file or directory.',
    outside: 'This path (or where it points) is outside the session directory and cannot be browsed.',
    denied: (p) => `This directory may not be browsed: ${s(p.reason)}`,
    special: 'Not a regular file or directory (a pipe, device or socket); it is not opened.',
    'git-internal': 'The contents of .git are not shown in the browser.',
  },
});
