// The microphone's own texts, zh and en; registered with addMessages().
export default {
  zh: {
    vRecord: '🎤 语音',
    vRecordLabel: '按下开始录音，再按一次停止并发送',
    vStop: '■ 停止并发送 {s}s',
    vSending: '正在识别…',
    vMicError: '无法使用麦克风：{msg}',
    vTooShort: '录音太短，没有发送',
  },
  en: {
    vRecord: '🎤 Voice',
    vRecordLabel: 'Press to record, press again to stop and send',
    vStop: '■ Stop and send {s}s',
    vSending: 'Transcribing…',
    vMicError: 'The microphone is not available: {msg}',
    vTooShort: 'Too short; nothing was sent',
  },
};
