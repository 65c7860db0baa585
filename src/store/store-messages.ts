import { defineMessages } from '../core/i18n.js';

/** What a failed file operation was doing; part of the `STORE_IO` message. */
export type StoreIoOp = 'read' | 'write' | 'create' | 'delete' | 'lock';

const zhOps: Record<StoreIoOp, string> = { read: '读取', write: '写入', create: '创建', delete: '删除', lock: '锁定' };
const s = (v: string | number | undefined): string => (v === undefined ? '' : String(v));

/**
 * The store room's user-facing messages (zh default, en). Keys are the `StoreError` codes, so every
 * error has exactly one sentence a user can act on, always on one line.
 */
export const storeMessages = defineMessages({
  zh: {
    STORE_LOCK_TIMEOUT:
      '等待文件锁 {lockFile} 超时（{timeoutMs} ms），当前持有者：{holder}。若该进程已不存在，可删除此锁文件后重试',
    STORE_CORRUPT: '文件 {file} 已损坏，无法解析（{reason}）',
    STORE_NEWER_SCHEMA:
      '文件 {file} 由更新版本的 cc-linker 写入（schema {found}，本版本支持 {supported}），请升级 cc-linker 后再试',
    STORE_OWNER_LOCKED: (p) =>
      `无法执行 ${s(p.action)}：cc-linker start 正在运行（pid ${s(p.pid)}${p.host ? `，主机 ${s(p.host)}` : ''}），请先停止它（cc-linker stop）后再执行`,
    STORE_IO: (p) => `无法${zhOps[p.op as StoreIoOp] ?? s(p.op)}文件 ${s(p.file)}：${s(p.reason)}`,
  },
  en: {
    STORE_LOCK_TIMEOUT:
      'Timed out after {timeoutMs} ms waiting for the lock {lockFile}, held by {holder}. If that process no longer exists, delete the lock file and retry',
    STORE_CORRUPT: 'The file {file} is corrupt and cannot be parsed ({reason})',
    STORE_NEWER_SCHEMA:
      'The file {file} was written by a newer cc-linker (schema {found}, this version supports {supported}); upgrade cc-linker and retry',
    STORE_OWNER_LOCKED: (p) =>
      `Cannot run ${s(p.action)}: cc-linker start is running (pid ${s(p.pid)}${p.host ? ` on host ${s(p.host)}` : ''}); stop it first (cc-linker stop) and retry`,
    STORE_IO: 'Cannot {op} the file {file}: {reason}',
  },
});
