/**
 * What a DingTalk client does with the `dtmd://dingtalkclient/sendMessage?content=…` links of a
 * robot markdown message: a tap sends the decoded `content` into the chat as the user. This reads
 * those links out of sent markdown as the client would (the link target ends at the first `)`),
 * so a test "taps" by pushing a robot message with that text.
 */
export function tapLinks(markdown: string): Array<{ label: string; content: string }> {
  const links = markdown.matchAll(/\[((?:\\.|[^\]\\])*)\]\((dtmd:\/\/dingtalkclient\/sendMessage\?[^)\s]*)\)/g);
  return [...links].map((m) => ({
    label: (m[1] ?? '').replace(/\\(.)/g, '$1'),
    content: new URL(m[2] ?? '').searchParams.get('content') ?? '',
  }));
}
