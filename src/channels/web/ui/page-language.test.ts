import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

// The browser modules are plain JavaScript; load them by URL so the type checker does not need their types.
const load = async <T>(file: string) => (await import(pathToFileURL(path.join(import.meta.dirname, file)).href)) as T;
const { pickLanguage } = await load<{ pickLanguage(store: { getItem(k: string): string | null } | null): string }>(
  'i18n.js',
);
const toolCard = (await load<{ default: Record<'zh' | 'en', Record<string, string>> }>('tool-card-i18n.js')).default;

const store = (values: Record<string, string>) => ({ getItem: (k: string) => values[k] ?? null });

describe('the page language', () => {
  it('is the saved choice, else general.language as the server said it, else zh — never the browser locale', () => {
    expect(pickLanguage(store({ 'ccl-lang': 'zh', 'ccl-default-lang': 'en' }))).toBe('zh');
    expect(pickLanguage(store({ 'ccl-default-lang': 'en' }))).toBe('en');
    expect(pickLanguage(store({ 'ccl-lang': 'fr' }))).toBe('zh');
    expect(pickLanguage(null)).toBe('zh');
  });

  it("quotes a tool's own reason in the page's language and names the exit code in it", () => {
    expect(Object.keys(toolCard.zh).sort()).toEqual(Object.keys(toolCard.en).sort());
    expect(toolCard.zh.toolReason).toBe('{label}：「{reason}」');
    expect(toolCard.en.toolReason).toBe('{label}: “{reason}”');
    expect(toolCard.zh.toolExitCode).not.toMatch(/exit/);
  });
});
