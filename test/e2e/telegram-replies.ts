import type { FakeMessage, FakeTelegram } from '../fakes/fake-telegram/fake-telegram-server.js';
import { until } from './telegram-harness.js';

/** The bot's messages replying to the user's message `update`, in order. */
export function replies(tg: FakeTelegram, update: Record<string, unknown>): FakeMessage[] {
  const id = (update.message as { message_id: number }).message_id;
  return tg.messages.filter((m) => m.reply_to === id);
}

/** The streamed answer to `update` once final: the footer (turns) shown and the Stop button removed. */
export async function finalAnswer(
  tg: FakeTelegram,
  update: Record<string, unknown>,
  expected: string,
): Promise<FakeMessage> {
  await until(
    () =>
      replies(tg, update).some(
        (m) => m.visible.includes(expected) && !m.reply_markup && /🔄 \d+ turns/.test(m.visible),
      ),
    `the final answer containing ${expected}`,
    45_000,
  );
  return replies(tg, update).find((m) => m.visible.includes(expected)) as FakeMessage;
}
