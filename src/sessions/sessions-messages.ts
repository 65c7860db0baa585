import { defineMessages } from '../core/i18n.js';

/**
 * The sessions room's user-facing text (zh default, en): scan warnings, errors, origin and status
 * labels, relative times and the session list/detail layout shared by the terminal and chat.
 */
export const sessionsMessages = defineMessages({
  zh: {
    warn_too_large: '跳过过大的会话文件 {file}（{detail}，超过 scanner.max_file_size）',
    warn_unreadable: '无法读取会话文件 {file}（{detail}），已标记为 corrupted',
    warn_not_a_file: '跳过 {file}：不是普通文件',
    warn_broken_link: '跳过 {file}：符号链接指向的文件不存在',
    warn_not_a_session_id: '跳过 {file}：名字不是 Claude Code 的会话 ID（UUID），不会列出，也不能恢复',
    warn_not_jsonl: '会话文件 {file} 不是 JSONL（没有一行可解析），已标记为 corrupted',
    warn_invalid_lines: '会话文件 {file} 有 {detail} 行无法解析，已跳过这些行',
    warn_long_lines: '会话文件 {file} 有 {detail} 行过长，已跳过这些行',
    warn_duplicate_session: '会话 ID 重复：{file} 与 {detail}，使用最近修改的文件',
    warn_unreadable_dir: '无法读取目录 {file}（{detail}）',
    warn_bad_event: '忽略无法解析的会话发现事件 {file}',
    warn_unreadable_mapping: '无法解析 {file}，本次不从中恢复飞书来源信息',
    warn_registry_recovered: '{file} 已损坏，已从备份 {detail} 恢复',
    warn_registry_dropped: '{file} 中有 {detail} 条会话记录格式错误，已忽略（下次扫描会重新发现仍存在的会话）',
    err_SESSION_NOT_FOUND: '找不到会话 {prefix}，可用 cc-linker list 查看所有会话',
    err_SESSION_AMBIGUOUS: '会话前缀 {prefix} 匹配到多个会话：{candidates}，请输入更长的前缀',
    err_SESSION_CORRUPTED: '会话 {id} 已损坏，无法恢复（{reason}），请切换到其他会话或重新创建',
    err_SESSION_NOT_READY: '会话 {id} 仍在创建中（{reason}），请稍后重试或执行 cc-linker repair {id}',
    err_SESSION_FILE_MISSING: '会话 {id} 的 JSONL 文件不存在（{file}），可执行 cc-linker repair {id}',
    err_SESSION_NOT_AN_ID:
      '{id} 不是 Claude Code 的会话 ID（UUID），不能恢复；运行 cc-linker sync 会把它从会话列表中移除',
    err_REGISTRY_MISSING: '尚未初始化：找不到 {file}，请先运行 cc-linker init',
    err_REGISTRY_UNRECOVERABLE:
      '{file} 已损坏（{reason}）且没有可用的备份；可删除该文件后运行 cc-linker init 重新扫描（飞书来源信息可能丢失）',
    err_HOOK_SETTINGS_INVALID: '无法修改 Claude Code 设置文件 {file}：{reason}，请手动修正后重试',
    origin_cli: '终端',
    origin_feishu: '飞书',
    status_degraded: '降级',
    status_provisioning: '创建中',
    status_corrupted: '损坏',
    status_archived: '归档',
    untitled: 'Untitled',
    just_now: '刚刚',
    minutes_ago: '{n} 分钟前',
    hours_ago: '{n} 小时前',
    days_ago: '{n} 天前',
    months_ago: '{n} 个月前',
    years_ago: '{n} 年前',
    messages_n: '{n}条',
  },
  en: {
    warn_too_large: 'Skipped the session file {file} ({detail}, over scanner.max_file_size)',
    warn_unreadable: 'Cannot read the session file {file} ({detail}); marked corrupted',
    warn_not_a_file: 'Skipped {file}: not a regular file',
    warn_broken_link: 'Skipped {file}: the symbolic link points to a missing file',
    warn_not_a_session_id:
      'Skipped {file}: its name is not a Claude Code session id (a UUID); it is neither listed nor resumable',
    warn_not_jsonl: 'The session file {file} is not JSONL (no line parses); marked corrupted',
    warn_invalid_lines: 'The session file {file} has {detail} unparsable lines; they were skipped',
    warn_long_lines: 'The session file {file} has {detail} over-long lines; they were skipped',
    warn_duplicate_session: 'Duplicate session id: {file} and {detail}; using the most recently modified file',
    warn_unreadable_dir: 'Cannot read the directory {file} ({detail})',
    warn_bad_event: 'Ignored an unparsable session discovery event {file}',
    warn_unreadable_mapping: 'Cannot parse {file}; Feishu-origin metadata is not restored from it this time',
    warn_registry_recovered: '{file} was corrupt; recovered from the backup {detail}',
    warn_registry_dropped:
      '{file} has {detail} malformed session entries; ignored (the next scan finds sessions that still exist)',
    err_SESSION_NOT_FOUND: 'No session matches {prefix}; run cc-linker list to see all sessions',
    err_SESSION_AMBIGUOUS: 'The prefix {prefix} matches several sessions: {candidates}; type a longer prefix',
    err_SESSION_CORRUPTED:
      'The session {id} is corrupted and cannot be resumed ({reason}); switch to another session or start a new one',
    err_SESSION_NOT_READY:
      'The session {id} is still being created ({reason}); retry later or run cc-linker repair {id}',
    err_SESSION_FILE_MISSING: 'The JSONL file of session {id} does not exist ({file}); try cc-linker repair {id}',
    err_SESSION_NOT_AN_ID:
      '{id} is not a Claude Code session id (a UUID) and cannot be resumed; cc-linker sync removes it from the list',
    err_REGISTRY_MISSING: 'Not initialised: {file} does not exist; run cc-linker init first',
    err_REGISTRY_UNRECOVERABLE:
      '{file} is corrupt ({reason}) and no usable backup exists; delete it and run cc-linker init to rescan (Feishu-origin metadata may be lost)',
    err_HOOK_SETTINGS_INVALID: 'Cannot change the Claude Code settings file {file}: {reason}; fix it by hand and retry',
    origin_cli: 'terminal',
    origin_feishu: 'Feishu',
    status_degraded: 'degraded',
    status_provisioning: 'provisioning',
    status_corrupted: 'corrupted',
    status_archived: 'archived',
    untitled: 'Untitled',
    just_now: 'just now',
    minutes_ago: (p) => `${p.n} minute${p.n === 1 ? '' : 's'} ago`,
    hours_ago: (p) => `${p.n} hour${p.n === 1 ? '' : 's'} ago`,
    days_ago: (p) => `${p.n} day${p.n === 1 ? '' : 's'} ago`,
    months_ago: (p) => `${p.n} month${p.n === 1 ? '' : 's'} ago`,
    years_ago: (p) => `${p.n} year${p.n === 1 ? '' : 's'} ago`,
    messages_n: (p) => `${p.n} msg${p.n === 1 ? '' : 's'}`,
  },
});
