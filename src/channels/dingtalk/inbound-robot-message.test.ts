import { describe, expect, it } from 'vitest';
import { convertRobotMessage } from './inbound-robot-message.js';

const now = new Date('2026-01-01T00:00:00Z');
const msg = (over: Record<string, unknown> = {}) => ({
  conversationId: 'cid1',
  conversationType: '1',
  msgId: 'm1',
  msgtype: 'text',
  text: { content: ' hi ' },
  senderStaffId: 'staff1',
  senderId: '$:LWCP_v1:$x',
  ...over,
});

describe('convertRobotMessage', () => {
  it('names a message by its msgId (the same on every re-push) and trims the text', () => {
    expect(convertRobotMessage(msg(), now)).toEqual({
      kind: 'message',
      message: {
        id: 'dingtalk:m1',
        channel: 'dingtalk',
        platformMessageId: 'm1',
        userId: 'staff1',
        chatId: 'cid1',
        chatType: 'p2p',
        text: 'hi',
        images: [],
        receivedAt: now.toISOString(),
      },
    });
  });

  it('ignores groups and incomplete data; a sender without staffId is named by senderId', () => {
    expect(convertRobotMessage(msg({ conversationType: '2' }), now).kind).toBe('ignore');
    expect(convertRobotMessage(msg({ msgId: undefined }), now).kind).toBe('ignore');
    expect(convertRobotMessage('x', now).kind).toBe('ignore');
    const outsider = convertRobotMessage(msg({ senderStaffId: undefined }), now);
    expect(outsider.kind === 'message' && outsider.message.userId).toBe('$:LWCP_v1:$x');
  });

  it('takes pictures by downloadCode, rich text in order, and names unsupported types', () => {
    const pic = convertRobotMessage(msg({ msgtype: 'picture', content: { downloadCode: 'd1' } }), now);
    expect(pic.kind === 'message' && pic.message.images).toEqual([{ key: 'd1' }]);
    const rich = convertRobotMessage(
      msg({
        msgtype: 'richText',
        content: { richText: [{ text: 'a ' }, { type: 'picture', downloadCode: 'd2' }, { text: 'b' }] },
      }),
      now,
    );
    expect(rich).toMatchObject({ kind: 'message', message: { text: 'a b', images: [{ key: 'd2' }] } });
    const audio = convertRobotMessage(msg({ msgtype: 'audio' }), now);
    expect(audio.kind === 'message' && audio.message.unsupportedType).toBe('audio');
    expect(convertRobotMessage(msg({ msgtype: 'interactiveCard' }), now).kind).toBe('ignore');
  });

  it('takes files, audio and video with a downloadCode as files (named), without one as unsupported', () => {
    const file = convertRobotMessage(
      msg({ msgtype: 'file', content: { downloadCode: 'f1', fileName: '报告 v2.pdf', spaceId: 's', fileId: 'x' } }),
      now,
    );
    expect(file).toMatchObject({ kind: 'message', message: { text: '', files: [{ key: 'f1', name: '报告 v2.pdf' }] } });
    expect(file.kind === 'message' && file.message.unsupportedType).toBeUndefined();
    const audio = convertRobotMessage(msg({ msgtype: 'audio', content: { downloadCode: 'a1', duration: 3 } }), now);
    expect(audio.kind === 'message' && audio.message.files).toEqual([{ key: 'a1', name: 'audio-m1' }]);
    const video = convertRobotMessage(
      msg({ msgtype: 'video', content: { downloadCode: 'v1', videoType: 'mp4' } }),
      now,
    );
    expect(video.kind === 'message' && video.message.files).toEqual([{ key: 'v1', name: 'video-m1.mp4' }]);
    const bare = convertRobotMessage(msg({ msgtype: 'file', content: { fileName: 'a.txt' } }), now);
    expect(bare.kind === 'message' && [bare.message.unsupportedType, bare.message.files]).toEqual(['file', undefined]);
  });

  it('takes a voice message DingTalk transcribed as the voice transcript, with its length; nothing kept as a file', () => {
    const heard = convertRobotMessage(
      msg({ msgtype: 'audio', content: { downloadCode: 'a2', duration: '4200', recognition: ' 帮我看看测试 ' } }),
      now,
    );
    expect(heard).toMatchObject({
      kind: 'message',
      message: { text: '', voice: { transcript: '帮我看看测试', durationMs: 4200 } },
    });
    expect(heard.kind === 'message' && [heard.message.files, heard.message.unsupportedType]).toEqual([
      undefined,
      undefined,
    ]);
    const silent = convertRobotMessage(
      msg({ msgtype: 'audio', content: { downloadCode: 'a3', recognition: '' } }),
      now,
    );
    expect(silent.kind === 'message' && silent.message.voice).toEqual({ transcript: '' });
  });
});
