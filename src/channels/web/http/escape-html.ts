const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Escapes text for HTML element content AND attribute values (both quote kinds), so one function
 * is safe everywhere the console puts untrusted text (Claude's answers, session titles, paths,
 * model output) into markup. Everything the server renders goes through here; nothing is ever
 * interpolated raw.
 *
 * @example
 *   escapeHtml('<img src=x onerror=alert(1)>') // '&lt;img src=x onerror=alert(1)&gt;'
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}
