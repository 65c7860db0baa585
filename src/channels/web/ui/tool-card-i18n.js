// The tool card's own texts (registered with addMessages). A reason the gate or the CLI wrote is
// the tool's own English: it is shown quoted after the page's label, never spliced into a sentence.
export default {
  zh: {
    toolExitCode: '退出码 {code}',
    toolReason: '{label}：「{reason}」',
    toolReasonAlone: '「{reason}」',
  },
  en: {
    toolExitCode: 'exit {code}',
    toolReason: '{label}: “{reason}”',
    toolReasonAlone: '“{reason}”',
  },
};
