import { describe, expect, it } from 'vitest';
import { stripCliLogs } from './strip-cli-logs.js';

const LOGS_BEFORE =
  '[AppConfig] Configuration loaded\n[DatabaseManager] Using better-sqlite3-multiple-ciphers\n[DatabaseManager] Database initialized: /home/u/.config/chainlesschain/data/chainlesschain.db\n';

describe('stripCliLogs', () => {
  it('removes the log lines around a --json result so it parses', () => {
    const out = stripCliLogs(`${LOGS_BEFORE}[\n  {"id":"d4f0"}\n]\n[DatabaseManager] Database closed\n`);
    expect(out).toBe('[\n  {"id":"d4f0"}\n]\n');
    expect(JSON.parse(out)).toEqual([{ id: 'd4f0' }]);
  });

  it('keeps CJK lines, blank lines and other bracketed lines exactly', () => {
    const body = 'Notes (2):\n\n  d4f00559  网关设计 [design]  2026-11-30\n[Other] not a CLI log\n';
    expect(stripCliLogs(`${LOGS_BEFORE}${body}[DatabaseManager] Database closed\n`)).toBe(body);
  });

  it('never leaves the home directory of the database path', () => {
    expect(stripCliLogs(`${LOGS_BEFORE}ℹ No notes found\n`)).not.toContain('/home/u');
  });

  it('matches only at the start of a line and only with the trailing space', () => {
    const text = 'x [AppConfig] inline\n[AppConfig]no-space\n [DatabaseManager] indented\n';
    expect(stripCliLogs(text)).toBe(text);
  });

  it('handles an unterminated log line at the end and CRLF lines', () => {
    expect(stripCliLogs('ok\n[DatabaseManager] Database closed')).toBe('ok\n');
    expect(stripCliLogs('[AppConfig] Configuration loaded\r\nok\r\n')).toBe('ok\r\n');
  });

  it('returns text without log lines unchanged', () => {
    expect(stripCliLogs('')).toBe('');
    expect(stripCliLogs('0.165.7\n')).toBe('0.165.7\n');
  });
});
