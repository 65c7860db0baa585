// The phone layout's own texts: the back button of an open session (`#s-back`).
export default {
  zh: { sBack: '← 会话' },
  en: { sBack: '← Sessions' },
};
