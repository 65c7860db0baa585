import { defineMessages } from '../../core/i18n.js';

/** Texts the message pipeline itself shows (zh default, en). Command texts live in bridge-messages.ts. */
export const pipelineMessages = defineMessages({
  zh: {
    completeTitle: '✅ Claude',
    errorTitle: '❌ 处理失败',
    emptyAnswer: '（Claude 没有返回文本）',
    turns: '{n} 轮',
    denials: '⚠️ 以下工具被拒绝：{tools}',
    internalError: '处理消息时发生内部错误，请稍后重试。',
    deliveryFailed: '回复发送失败',
    continueInstruction:
      '（cc-linker）上一轮在完成前被中断了（cc-linker 重启）。请从中断的地方继续完成上面那条消息的任务：已经完成的工具调用不要重复执行，先根据已有的工具结果判断做到了哪一步；如果任务其实已经完成，直接给出最终答复。',
    continuedNote: '⏯ 中断后继续',
    transcriptFooter: '📜 从会话记录恢复（费用、用时和轮次未知）',
    interruptedTitle: '⏸ 已中断',
    interruptedAsk: '上一轮在 cc-linker 重启时被中断，Claude 已经做了一部分。要让它从中断处继续，还是跳过这条消息？',
    continueButton: '继续',
    skipButton: '跳过',
    continuing: '⏯ 正在继续…',
    skippedTitle: '⏭ 已跳过',
    skipped: '这条消息被中断后已跳过，没有继续运行。',
    skippedNoChoice: '等待选择超时，这条被中断的消息已跳过。',
    choiceExpired: '这个选择已失效（消息已处理或 cc-linker 已重启）。',
    choiceNotYours: '只有发送这条消息的人可以选择。',
  },
  en: {
    completeTitle: '✅ Claude',
    errorTitle: '❌ Failed',
    emptyAnswer: '(Claude returned no text)',
    turns: '{n} turns',
    denials: '⚠️ These tools were denied: {tools}',
    internalError: 'An internal error occurred while handling your message. Please try again.',
    deliveryFailed: 'Could not send the reply',
    continueInstruction:
      '(cc-linker) The previous turn was interrupted before it finished (cc-linker restarted). Continue the task of the message above from where it stopped: do not repeat tool calls that already completed; check the tool results you already have to see how far you got. If the task is in fact done, give the final answer.',
    continuedNote: '⏯ Continued after an interruption',
    transcriptFooter: '📜 Recovered from the session transcript (cost, duration and turns unknown)',
    interruptedTitle: '⏸ Interrupted',
    interruptedAsk:
      'The previous turn was interrupted when cc-linker restarted, after Claude had done part of it. Continue from where it stopped, or skip this message?',
    continueButton: 'Continue',
    skipButton: 'Skip',
    continuing: '⏯ Continuing…',
    skippedTitle: '⏭ Skipped',
    skipped: 'This message was interrupted and skipped; it was not continued.',
    skippedNoChoice: 'No choice was made in time; the interrupted message was skipped.',
    choiceExpired: 'This choice is no longer open (the message was handled, or cc-linker restarted).',
    choiceNotYours: 'Only the sender of this message can choose.',
  },
});
