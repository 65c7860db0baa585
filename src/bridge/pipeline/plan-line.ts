/**
 * An agent's plan as one line for the streaming card: steps done of all, and the step in progress
 * (else the next one). Empty plan → undefined.
 */
export function planLine(entries: ReadonlyArray<{ content: string; status: string }>): string | undefined {
  if (entries.length === 0) return undefined;
  const done = entries.filter((e) => e.status === 'completed').length;
  const now = entries.find((e) => e.status === 'in_progress') ?? entries.find((e) => e.status === 'pending');
  return `📋 ${done}/${entries.length}${now ? ` · ${now.content.replace(/\s+/g, ' ').trim()}` : ''}`;
}
