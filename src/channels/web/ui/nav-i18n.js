// The texts of the session navigation (list count and grouping, one session's view, its
// composer's target, the Activity panel), zh and en; registered with addMessages().
export const navMessages = {
  zh: {
    navCount: '{n} 个会话',
    navGroup: '按项目分组',
    navBack: '← 会话',
    navTo: '发往：{title} · {dir} · {agent}',
    navUnknown: '找不到会话 {id}（可能已被删除，或列表尚未刷新）。',
    navActivity: '动态',
    navActivityEmpty: '命令的回复（如 /list、/help）和通知显示在这里。',
    navLiveEmpty: '',
    navOpening: '正在打开新会话…',
    navCommandHint: '命令：/new <目录> -- 提示、/list、/help…',
    navCommandOnly: '这里只收命令（以 / 开头）。给会话发消息请先打开它。',
  },
  en: {
    navCount: '{n} sessions',
    navGroup: 'Group by project',
    navBack: '← Sessions',
    navTo: 'To: {title} · {dir} · {agent}',
    navUnknown: 'No session {id} (deleted, or the list is not refreshed yet).',
    navActivity: 'Activity',
    navActivityEmpty: 'Replies to commands (like /list, /help) and notices show here.',
    navLiveEmpty: '',
    navOpening: 'Opening the new session…',
    navCommandHint: 'Commands: /new <dir> -- prompt, /list, /help…',
    navCommandOnly: 'Only commands (starting with /) go here. Open a session to send it a message.',
  },
};
