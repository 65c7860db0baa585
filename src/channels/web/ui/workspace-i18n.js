// The session detail's tab labels (Transcript | Changes | Files), zh and en; registered with
// addMessages() by workspace-tabs.js, which the page loads at once (the views themselves load later).
export default {
  zh: { wsTabTranscript: '对话', wsTabChanges: '改动', wsTabFiles: '文件' },
  en: { wsTabTranscript: 'Transcript', wsTabChanges: 'Changes', wsTabFiles: 'Files' },
};
