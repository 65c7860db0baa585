// The Files tab's own texts, zh and en; registered with addMessages().
export default {
  zh: {
    fRoot: '会话目录',
    fLoading: '正在读取…',
    fEmpty: '空目录',
    fMore: '还有 {n} 项未显示',
    fDownload: '下载（{size}）',
    fBinary: '二进制文件，不在页面中显示。',
    fLarge: '文件较大，不在页面中显示。',
    fOther: '特殊文件',
    fLink: '链接',
  },
  en: {
    fRoot: 'session directory',
    fLoading: 'Reading…',
    fEmpty: 'Empty directory',
    fMore: '{n} more not shown',
    fDownload: 'Download ({size})',
    fBinary: 'A binary file; not shown in the page.',
    fLarge: 'A large file; not shown in the page.',
    fOther: 'special file',
    fLink: 'link',
  },
};
