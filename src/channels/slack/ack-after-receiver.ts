import { SocketModeReceiver, type App, type SocketModeReceiverOptions } from '@slack/bolt';

/** Thrown by a listener to leave an event unacknowledged: Slack sends it again (`retry_attempt` 1–3). */
export class RetryLater extends Error {}

type SlackEventArgs = {
  ack: (response?: Record<string, unknown>) => Promise<void>;
  type: string;
  body: Record<string, unknown>;
  retry_num?: number;
  retry_reason?: string;
};

/**
 * Bolt's Socket Mode receiver with one change: an `events_api` envelope is acknowledged after the
 * listeners returned, not before they ran (Bolt's own order). Our message listener returns once
 * `bridge.accept()` has persisted the message, so an ack now means "kept"; a listener that throws
 * (`RetryLater`, or a failed accept) leaves the envelope unacknowledged and Slack sends it again.
 * Interactive and slash-command envelopes keep Bolt's rule (the listener calls `ack()`: a click at
 * once, `/cc` after accept), with a safety ack after the listener if it never did, so Slack never
 * shows the user a failure for a click or command we handled.
 */
export class AckAfterReceiver extends SocketModeReceiver {
  private target: App | undefined;

  constructor(
    options: SocketModeReceiverOptions,
    private readonly onError: (err: unknown, type: string) => void,
  ) {
    super(options);
    this.client.removeAllListeners('slack_event');
    this.client.on('slack_event', (args: SlackEventArgs) => void this.dispatch(args));
  }

  override init(app: App): void {
    super.init(app);
    this.target = app;
  }

  private async dispatch(args: SlackEventArgs): Promise<void> {
    const app = this.target;
    if (!app) return;
    let acked = false;
    const ack = async (response?: Record<string, unknown>) => {
      if (acked) return;
      acked = true;
      await args.ack(response);
    };
    const deferred = args.type === 'events_api';
    try {
      await app.processEvent({
        body: args.body,
        ack: deferred ? async () => undefined : ack,
        ...(args.retry_num !== undefined ? { retryNum: args.retry_num } : {}),
        ...(args.retry_reason !== undefined ? { retryReason: args.retry_reason } : {}),
      });
    } catch (err) {
      if (!(err instanceof RetryLater)) this.onError(err, args.type);
      if (deferred) return;
    }
    await ack().catch((err: unknown) => this.onError(err, args.type));
  }
}
