import type { webApi } from '@slack/bolt';
import type { Language } from '../../core/i18n.js';
import { messageRef, parseChatAddress, parseMessageRef } from './inbound-event.js';
import type { SlackMessage } from './render-blocks.js';
import { SlackApiError, toSlackError } from './slack-api-error.js';

/**
 * The Web API calls the channel makes, through `@slack/web-api`'s client (its retry policy waits
 * out a 429's `Retry-After`); every failure becomes a `SlackApiError`. Messages are addressed as
 * `<channel>:<ts>`.
 */
export class SlackApi {
  constructor(
    private readonly client: webApi.WebClient,
    private readonly lang: Language,
  ) {}

  /** Posts one message to a chat (`chatAddress`: a DM, or a thread in it); resolves once Slack has confirmed it, with its reference. */
  async post(chat: string, message: SlackMessage): Promise<string> {
    const { channel, threadTs } = parseChatAddress(chat);
    try {
      const r = await this.client.chat.postMessage({
        channel,
        ...(threadTs ? { thread_ts: threadTs } : {}),
        text: message.text,
        blocks: message.blocks as never,
        unfurl_links: false,
        unfurl_media: false,
      });
      return messageRef(String(r.channel ?? channel), String(r.ts ?? ''));
    } catch (err) {
      throw toSlackError('chat.postMessage', err, this.lang);
    }
  }

  /** Replaces a message's text and blocks (buttons absent from `blocks` are gone). */
  async update(ref: string, message: SlackMessage): Promise<void> {
    const target = parseMessageRef(ref);
    if (!target) throw new SlackApiError('chat.update', 'bad message reference', this.lang);
    try {
      await this.client.chat.update({
        channel: target.channel,
        ts: target.ts,
        text: message.text,
        blocks: message.blocks as never,
      });
    } catch (err) {
      throw toSlackError('chat.update', err, this.lang);
    }
  }

  /** The app's direct-message channel with `user` (`conversations.open`, which also answers when it is open). */
  async directChannel(user: string): Promise<string> {
    try {
      const r = await this.client.conversations.open({ users: user });
      const id = r.channel?.id;
      if (!id) throw new SlackApiError('conversations.open', 'no channel in the answer', this.lang);
      return id;
    } catch (err) {
      throw toSlackError('conversations.open', err, this.lang);
    }
  }

  /** A message only `user` sees, in `channel` (a click's warning: Slack has no toast). */
  async ephemeral(channel: string, user: string, text: string): Promise<void> {
    try {
      await this.client.chat.postEphemeral({ channel, user, text });
    } catch (err) {
      throw toSlackError('chat.postEphemeral', err, this.lang);
    }
  }

  /**
   * Shares `bytes` as a file in a chat (`chatAddress`; `files.uploadV2`: an upload URL, the bytes, then
   * `files.completeUploadExternal`, which is the step that posts it), with `comment` as its
   * message. Resolves with `file:<id>` once Slack has completed it.
   */
  async upload(chat: string, bytes: Buffer, name: string, comment?: string): Promise<string> {
    const { channel, threadTs } = parseChatAddress(chat);
    try {
      const file = { file: bytes, filename: name, ...(comment ? { initial_comment: comment } : {}) };
      const r = await this.client.files.uploadV2(
        threadTs ? { channel_id: channel, thread_ts: threadTs, ...file } : { channel_id: channel, ...file },
      );
      // The result lists one completion per upload, each with its files.
      const completions = (r as { files?: Array<{ files?: Array<{ id?: string }> }> }).files ?? [];
      const id = completions[0]?.files?.[0]?.id;
      if (!id) throw new SlackApiError('files.uploadV2', 'no file in the answer', this.lang);
      return `file:${id}`;
    } catch (err) {
      throw toSlackError('files.uploadV2', err, this.lang);
    }
  }
}
