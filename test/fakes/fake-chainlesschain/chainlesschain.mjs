#!/usr/bin/env node
// A faithful fake of the ChainlessChain CLI (`chainlesschain`, 0.165.7) for the cc_exec gateway's tests,
// built from the real CLI's behaviour and its own command sources: the read-only
// commands with their real flags and output shapes (human and --json), the [AppConfig]/[DatabaseManager]
// stdout log lines of every command that opens the database, commander-style errors (stderr, exit 1),
// the empty-result texts, and a few write commands that really write — so a test can prove the gate
// never lets one run.
//
// Data: JSON at $XDG_CONFIG_HOME/chainlesschain/fake-data.json (default $HOME/.config/…), shape in
// fake-cli.ts (FakeData). Test switches (environment):
//   FAKE_CC_VERSION=<v>          what --version prints (default 0.165.7)
//   FAKE_CC_SLOW_MS=<ms>         sleep this long before the result (after the log lines)
//   FAKE_CC_HUGE=<bytes>         print about this many bytes of CJK lines as the result
//   FAKE_CC_SPAWN_GRANDCHILD=1   start a grandchild in our process group that lives on
//   FAKE_CC_IGNORE_TERM=1        ignore SIGTERM (the grandchild too)
//   FAKE_CC_PID_FILE=<file>      write "<pid> <grandchild pid|->" once running
//   FAKE_CC_DUMP_ENV=<file>      write {cwd, env} (our whole environment) as JSON
//   FAKE_CC_CALL_LOG=<file>      append one JSON line per invocation (argv), to count real runs
//   FAKE_CC_VERSION_LOG=<file>   append one JSON line per --version run, to count version probes
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const VERSION = process.env.FAKE_CC_VERSION || '0.165.7';
const argv = process.argv.slice(2);
const env = process.env;

const out = (line = '') => process.stdout.write(`${line}\n`);
const err = (line) => process.stderr.write(`${line}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Commander's way out: `error: …` on stderr, exit 1. */
function fail(message) {
  err(`error: ${message}`);
  process.exit(1);
}

// ---------------------------------------------------------------- data

const configHome = env.XDG_CONFIG_HOME || path.join(env.HOME || os.homedir(), '.config');
const dataFile = path.join(configHome, 'chainlesschain', 'fake-data.json');
const dbFile = env.CC_PROJECT_ROOT
  ? path.join(env.CC_PROJECT_ROOT, '.chainlesschain', 'data', 'chainlesschain.db')
  : env.CHAINLESSCHAIN_HOME
    ? path.join(env.CHAINLESSCHAIN_HOME, 'data', 'chainlesschain.db')
    : path.join(configHome, 'chainlesschain', 'data', 'chainlesschain.db');

function loadData() {
  let data = {};
  try {
    data = JSON.parse(fs.readFileSync(dataFile, 'utf8'));
  } catch {
    data = {};
  }
  return { notes: [], memory: [], skills: [], sessions: [], mcpServers: [], dids: [], ...data };
}

function saveData(data) {
  fs.mkdirSync(path.dirname(dataFile), { recursive: true });
  fs.writeFileSync(dataFile, JSON.stringify(data, null, 2));
}

const now = () => new Date().toISOString().replace('T', ' ').slice(0, 19);

// ---------------------------------------------------------------- test behaviours

async function testBehaviours() {
  if (env.FAKE_CC_CALL_LOG) fs.appendFileSync(env.FAKE_CC_CALL_LOG, `${JSON.stringify({ pid: process.pid, argv })}\n`);
  if (env.FAKE_CC_DUMP_ENV)
    fs.writeFileSync(env.FAKE_CC_DUMP_ENV, JSON.stringify({ cwd: process.cwd(), env: process.env }));
  if (env.FAKE_CC_IGNORE_TERM === '1') process.on('SIGTERM', () => {});
  let grandchild = '-';
  if (env.FAKE_CC_SPAWN_GRANDCHILD === '1') {
    const code = `${env.FAKE_CC_IGNORE_TERM === '1' ? "process.on('SIGTERM', () => {});" : ''} setInterval(() => {}, 1000);`;
    // Same process group (not detached) and our stdout inherited: it holds the pipe after we exit.
    const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'inherit', 'inherit'] });
    child.unref();
    grandchild = String(child.pid);
  }
  if (env.FAKE_CC_PID_FILE) fs.writeFileSync(env.FAKE_CC_PID_FILE, `${process.pid} ${grandchild}\n`);
}

async function slowAndHuge() {
  const slow = Number(env.FAKE_CC_SLOW_MS || 0);
  if (slow > 0) await sleep(slow);
  const huge = Number(env.FAKE_CC_HUGE || 0);
  if (huge > 0) {
    let written = 0;
    let n = 0;
    const chunks = [];
    while (written < huge) {
      n += 1;
      const line = `  ${String(n).padStart(6, '0')}  笔记标题 note title ${n} — 中文内容 ✔\n`;
      chunks.push(line);
      written += Buffer.byteLength(line);
    }
    process.stdout.write(chunks.join(''));
    return true;
  }
  return false;
}

// ---------------------------------------------------------------- a tiny commander

/**
 * Parses `args` against one command spec: options `{ flags: '-n, --limit <n>', key, bool?, default? }`
 * and positional `args: [{ name, required }]`. Long `--x=v`, split `--x v`, short `-n v` and `-n5`
 * as commander does; `--json=true` on a boolean is an unknown option; excess positionals are ignored
 * (commander 12).
 */
function parse(args, spec) {
  const opts = {};
  const positionals = [];
  for (const o of spec.options) if (o.default !== undefined) opts[o.key] = o.default;
  const find = (name) => spec.options.find((o) => o.long === name || o.short === name);
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') {
      positionals.push(...args.slice(i + 1));
      break;
    }
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = eq === -1 ? a : a.slice(0, eq);
      const o = find(name);
      if (!o || (o.bool && eq !== -1)) fail(`unknown option '${a}'`);
      if (o.bool) opts[o.key] = true;
      else if (eq !== -1) opts[o.key] = a.slice(eq + 1);
      else {
        if (i + 1 >= args.length) fail(`option '${o.flags}' argument missing`);
        opts[o.key] = args[++i];
      }
      continue;
    }
    if (a.startsWith('-') && a.length > 1) {
      const o = find(a.slice(0, 2));
      if (!o) fail(`unknown option '${a}'`);
      if (o.bool) {
        if (a.length > 2) fail(`unknown option '${a}'`);
        opts[o.key] = true;
      } else if (a.length > 2) opts[o.key] = a.slice(2);
      else {
        if (i + 1 >= args.length) fail(`option '${o.flags}' argument missing`);
        opts[o.key] = args[++i];
      }
      continue;
    }
    positionals.push(a);
  }
  (spec.args ?? []).forEach((p, idx) => {
    if (p.required && positionals[idx] === undefined) fail(`missing required argument '${p.name}'`);
  });
  return { opts, positionals };
}

const opt = (flags, extra = {}) => {
  const long = /--[a-z-]+/.exec(flags)[0];
  const short = /(^|\s)(-[a-zA-Z]),/.exec(flags)?.[2];
  const key = long.slice(2).replace(/-([a-z])/g, (_, c) => c.toUpperCase());
  return { flags, long, short, key, bool: !flags.includes('<'), ...extra };
};
const JSON_OPT = opt('--json');

async function withDb(fn) {
  out('[AppConfig] Configuration loaded');
  out('[DatabaseManager] Using better-sqlite3-multiple-ciphers');
  out(`[DatabaseManager] Database initialized: ${dbFile}`);
  const code = (await slowAndHuge()) ? 0 : await fn(loadData());
  out('[DatabaseManager] Database closed');
  return typeof code === 'number' ? code : 0;
}

/** commander 12 numeric handling as the CLI does it: non-numeric and below-min fall back. */
const intOr = (value, fallback, min = 1) => {
  const n = parseInt(value, 10);
  return Number.isFinite(n) && n >= min ? n : fallback;
};

// ---------------------------------------------------------------- commands

const noteTags = (n) => (Array.isArray(n.tags) ? n.tags : JSON.parse(n.tags || '[]'));
const newestFirst = (a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0);

const COMMANDS = {
  note: {
    description: 'Note and knowledge base management',
    sub: {
      list: {
        options: [
          opt('-n, --limit <n>', { default: '20' }),
          opt('--category <category>'),
          opt('--tag <tag>'),
          JSON_OPT,
        ],
        run: ({ opts }) =>
          withDb((data) => {
            const limit = intOr(opts.limit, 20);
            let notes = data.notes.filter((n) => !n.deleted_at).sort(newestFirst);
            if (opts.category) notes = notes.filter((n) => n.category === opts.category);
            if (opts.tag) notes = notes.filter((n) => noteTags(n).includes(opts.tag));
            notes = notes.slice(0, limit);
            const rows = notes.map((n) => ({
              id: n.id,
              title: n.title,
              tags: JSON.stringify(noteTags(n)),
              category: n.category ?? 'general',
              created_at: n.created_at,
            }));
            if (opts.json) out(JSON.stringify(rows, null, 2));
            else if (rows.length === 0) out('ℹ No notes found');
            else {
              out(`Notes (${rows.length}):\n`);
              for (const n of notes) {
                const tags = noteTags(n);
                out(`  ${n.id.slice(0, 8)}  ${n.title}${tags.length ? ` [${tags.join(', ')}]` : ''}  ${n.created_at}`);
              }
            }
          }),
      },
      show: {
        args: [{ name: 'id', required: true }],
        options: [JSON_OPT],
        run: ({ opts, positionals }) =>
          withDb((data) => {
            const id = positionals[0];
            const n = data.notes.find((x) => !x.deleted_at && x.id.startsWith(id));
            if (!n) {
              err(`✖ Note not found: ${id}`);
              out('[DatabaseManager] Database closed');
              process.exit(1);
            }
            const row = {
              id: n.id,
              title: n.title,
              content: n.content ?? '',
              tags: JSON.stringify(noteTags(n)),
              category: n.category ?? 'general',
              created_at: n.created_at,
              updated_at: n.updated_at ?? n.created_at,
              deleted_at: null,
            };
            if (opts.json) return out(JSON.stringify(row, null, 2));
            out(n.title);
            out(`ID: ${n.id}`);
            out(`Category: ${row.category}  Created: ${n.created_at}`);
            if (noteTags(n).length) out(`Tags: ${noteTags(n).join(', ')}`);
            out('');
            out(n.content || '(empty)');
          }),
      },
      add: {
        args: [{ name: 'title', required: true }],
        options: [
          opt('-c, --content <content>'),
          opt('-t, --tags <tags>'),
          opt('--category <category>', { default: 'general' }),
          JSON_OPT,
        ],
        run: ({ opts, positionals }) =>
          withDb((data) => {
            const note = {
              id: randomUUID(),
              title: positionals[0],
              content: opts.content ?? '',
              tags: opts.tags ? opts.tags.split(',').map((t) => t.trim()) : [],
              category: opts.category,
              created_at: now(),
            };
            data.notes.push(note);
            saveData(data);
            if (opts.json)
              out(JSON.stringify({ id: note.id, title: note.title, tags: note.tags, category: note.category }));
            else out(`✔ Note created: ${note.title} (${note.id.slice(0, 8)})`);
          }),
      },
      delete: {
        args: [{ name: 'id', required: true }],
        options: [opt('--force')],
        run: ({ positionals }) =>
          withDb((data) => {
            const n = data.notes.find((x) => !x.deleted_at && x.id.startsWith(positionals[0]));
            if (!n) {
              err(`✖ Note not found: ${positionals[0]}`);
              return 1;
            }
            n.deleted_at = now();
            saveData(data);
            out(`✔ Note deleted: ${n.title}`);
          }),
      },
    },
  },
  search: {
    description: 'Search knowledge base (BM25 + vector hybrid)',
    args: [{ name: 'query', required: true }],
    options: [
      opt('--mode <mode>', { default: 'hybrid' }),
      opt('--top-k <n>', { default: '10' }),
      opt('--threshold <n>', { default: '0' }),
      JSON_OPT,
    ],
    run: ({ opts, positionals }) => {
      err('- Searching...');
      return withDb((data) => {
        const query = positionals[0];
        const notes = data.notes.filter((n) => !n.deleted_at);
        if (notes.length === 0) {
          err("ℹ No notes in knowledge base. Use 'note add' first.");
          return 0;
        }
        const topK = Math.max(1, parseInt(opts.topK, 10) || 10);
        const threshold = parseFloat(opts.threshold) || 0;
        const terms = query.toLowerCase().split(/\s+/).filter(Boolean);
        const bm25 = (n) => {
          const text = `${n.title} ${n.content ?? ''}`.toLowerCase();
          return terms.reduce((s, t) => s + (text.split(t).length - 1) * 1.7, 0);
        };
        let results;
        if (opts.mode === 'bm25') {
          results = notes.map((n) => ({ n, score: bm25(n) })).filter((r) => r.score > 0 && r.score >= threshold);
        } else if (opts.mode === 'vector') {
          results = notes
            .map((n) => ({ n, score: 0.2 + Math.min(0.7, bm25(n) / 10) }))
            .filter((r) => r.score >= threshold);
        } else {
          // Hybrid ranks every note (reciprocal rank fusion), matches first — even when nothing matches.
          const ranked = notes.map((n) => ({ n, s: bm25(n) })).sort((a, b) => b.s - a.s || newestFirst(a.n, b.n));
          results = ranked
            .map((r, rank) => ({ n: r.n, score: 2 / (60 + rank + 1) }))
            .filter((r) => r.score >= threshold);
        }
        results.sort((a, b) => b.score - a.score);
        results = results.slice(0, topK);
        if (opts.json) {
          out(
            JSON.stringify(
              results.map((r) => ({
                id: r.n.id,
                score: r.score,
                title: r.n.title,
                category: r.n.category ?? 'general',
                created_at: r.n.created_at,
                snippet: (r.n.content ?? '').substring(0, 200),
              })),
              null,
              2,
            ),
          );
        } else if (results.length === 0) out(`ℹ No results for "${query}"`);
        else {
          out(`Search results for "${query}" (${results.length}, mode: ${opts.mode}):\n`);
          for (const r of results) {
            const tags = noteTags(r.n);
            out(
              `  ${r.score.toFixed(4)}  ${r.n.id.slice(0, 8)}  ${r.n.title}${tags.length ? ` [${tags.join(', ')}]` : ''}`,
            );
            const snippet = (r.n.content ?? '').substring(0, 120).replace(/\n/g, ' ');
            if (snippet) out(`         ${snippet}`);
          }
        }
      });
    },
  },
  memory: {
    description: 'Persistent memory and daily notes',
    defaultSub: 'show',
    sub: {
      show: {
        options: [opt('-n, --limit <n>', { default: '20' }), opt('--category <cat>'), JSON_OPT],
        run: ({ opts }) =>
          withDb((data) => {
            let entries = [...data.memory].sort(newestFirst);
            if (opts.category) entries = entries.filter((e) => e.category === opts.category);
            entries = entries.slice(0, Math.max(1, parseInt(opts.limit, 10) || 20));
            if (opts.json) out(JSON.stringify(entries, null, 2));
            else if (entries.length === 0) out("ℹ No memory entries. Use 'memory add' to create one.");
            else {
              out(`Memory (${entries.length} entries):\n`);
              for (const e of entries) {
                const imp = Math.max(0, Math.min(5, Math.round(e.importance) || 0));
                out(`  ${e.id.slice(0, 12)}  ${'★'.repeat(imp)}${'☆'.repeat(5 - imp)}  ${e.category}`);
                out(`    ${e.content.substring(0, 120).replace(/\n/g, ' ')}`);
                out(`    ${e.created_at}`);
              }
            }
          }),
      },
      add: {
        args: [{ name: 'text', required: true }],
        options: [opt('--category <cat>', { default: 'general' }), opt('--importance <n>', { default: '3' }), JSON_OPT],
        run: ({ opts, positionals }) =>
          withDb((data) => {
            const entry = {
              id: `mem-${randomUUID().replace(/-/g, '').slice(0, 8)}`,
              content: positionals[0],
              category: opts.category,
              importance: intOr(opts.importance, 3),
              created_at: now(),
            };
            data.memory.push(entry);
            saveData(data);
            out(`✔ Memory added: ${entry.id.slice(0, 12)} [${entry.category}]`);
          }),
      },
      clear: {
        options: [opt('--force')],
        run: () =>
          withDb((data) => {
            data.memory = [];
            saveData(data);
            out('✔ Memory cleared');
          }),
      },
    },
  },
  skill: {
    description: 'Manage and run built-in AI skills',
    sub: {
      list: {
        options: [
          opt('--category <category>'),
          opt('--tag <tag>'),
          opt('--runnable'),
          opt('--source <source>'),
          JSON_OPT,
        ],
        run: async ({ opts }) => {
          err('- Loading skills...');
          if (await slowAndHuge()) return 0;
          let skills = loadData().skills;
          if (opts.category) skills = skills.filter((s) => s.category === opts.category);
          if (opts.tag) skills = skills.filter((s) => (s.tags ?? []).includes(opts.tag));
          if (opts.runnable) skills = skills.filter((s) => s.runnable);
          if (opts.source) skills = skills.filter((s) => s.source === opts.source);
          if (skills.length === 0) {
            err('No skills found. Run `chainlesschain skill sources` to see where skills are loaded from.');
            return 1;
          }
          if (opts.json) return out(JSON.stringify(skills, null, 2));
          out(`Skills (${skills.length}):\n`);
          const byCategory = new Map();
          for (const s of skills) byCategory.set(s.category, [...(byCategory.get(s.category) ?? []), s]);
          for (const [category, list] of byCategory) {
            out(`  ${category}`);
            for (const s of list)
              out(`    ${s.runnable ? '●' : '○'} ${s.name}  ${s.description ?? ''}  (${s.source ?? 'bundled'})`);
            out('');
          }
        },
      },
      install: {
        args: [{ name: 'name', required: true }],
        options: [JSON_OPT],
        run: ({ positionals }) => {
          const data = loadData();
          data.skills.push({
            name: positionals[0],
            category: 'installed',
            description: '',
            source: 'marketplace',
            runnable: true,
          });
          saveData(data);
          out(`✔ Skill installed: ${positionals[0]}`);
        },
      },
    },
  },
  status: {
    description: 'Show ChainlessChain status',
    options: [JSON_OPT, opt('--deep')],
    run: async ({ opts }) => {
      if (await slowAndHuge()) return 0;
      const ports = [
        { name: 'vite', port: 5173, open: false },
        { name: 'signaling', port: 9001, open: false },
        { name: 'ollama', port: 11434, open: false },
        { name: 'qdrant', port: 6333, open: false },
      ];
      const status = {
        schema: 'chainlesschain.status.v1',
        probeMode: opts.deep ? 'deep' : 'quick',
        version: VERSION,
        node: process.version,
        platform: process.platform,
        configDir: path.dirname(dbFile),
        database: { exists: fs.existsSync(dataFile) },
        ports,
      };
      if (opts.json) return out(JSON.stringify(status, null, 2));
      out('ChainlessChain Status\n');
      out(`  Version:   ${VERSION}`);
      out(`  Node:      ${process.version}`);
      out(`  Database:  ${status.database.exists ? '✔ ready' : '○ not initialized'}`);
      out('\n  Services:');
      for (const p of ports)
        out(`    ${p.open ? '●' : '○'} ${p.name.padEnd(10)} :${p.port}  ${p.open ? 'running' : 'stopped'}`);
    },
  },
  session: {
    description: 'Conversation session management',
    defaultSub: 'list',
    sub: {
      list: {
        options: [opt('-n, --limit <n>', { default: '20' }), JSON_OPT],
        run: ({ opts }) =>
          withDb((data) => {
            const sessions = [...data.sessions]
              .sort((a, b) => (a.updated_at < b.updated_at ? 1 : -1))
              .slice(0, Math.max(1, parseInt(opts.limit, 10) || 20));
            if (opts.json) out(JSON.stringify(sessions, null, 2));
            else if (sessions.length === 0) out("ℹ No saved sessions. Use 'chat' or 'agent' to create one.");
            else {
              out(`Sessions (${sessions.length}):\n`);
              for (const s of sessions) {
                out(`  ${s.id.slice(0, 16)}  ${s.title}  ${s.message_count} msgs  ${s.updated_at} `);
                if (s.summary) out(`    ${s.summary.substring(0, 100)}`);
              }
            }
          }),
      },
    },
  },
  mcp: {
    description: 'MCP server management and tool execution',
    sub: {
      servers: {
        aliases: ['list'],
        options: [JSON_OPT, opt('--mode <mode>'), opt('--scope <scope>'), opt('--all-scopes')],
        run: ({ opts }) =>
          withDb((data) => {
            const mode = opts.mode ?? 'local';
            const servers = data.mcpServers.map((s) => ({
              ...s,
              args: s.args ?? [],
              _mode: mode,
              _allowed: true,
              _reason: null,
              _transport: s.url ? 'http' : 'stdio',
              _modeCompatibility: ['local', 'lan'],
            }));
            if (opts.json) out(JSON.stringify(servers, null, 2));
            else if (servers.length === 0) out("ℹ No MCP servers configured. Use 'mcp add' to add one.");
            else {
              out(`MCP Servers (${servers.length}) — mode: ${mode}\n`);
              for (const s of servers) {
                out(`  ${s.name}${s.autoConnect ? ' [auto]' : ''} [ok]`);
                out(`    Command: ${s.command} ${s.args.join(' ')}`);
                out(`    Compatible: ${s._modeCompatibility.join(', ')}`);
              }
            }
          }),
      },
      add: {
        args: [{ name: 'name', required: true }],
        options: [opt('-c, --command <cmd>'), opt('-a, --args <args>'), opt('--auto-connect'), JSON_OPT],
        run: ({ opts, positionals }) =>
          withDb((data) => {
            data.mcpServers.push({
              name: positionals[0],
              command: opts.command ?? '',
              args: opts.args ? opts.args.split(',') : [],
              autoConnect: Boolean(opts.autoConnect),
            });
            saveData(data);
            out(`✔ MCP server added: ${positionals[0]}`);
          }),
      },
    },
  },
  did: {
    description: 'Decentralized Identity (DID) management',
    defaultSub: 'list',
    sub: {
      list: {
        options: [JSON_OPT],
        run: ({ opts }) =>
          withDb((data) => {
            const ids = data.dids;
            if (opts.json)
              out(
                JSON.stringify(
                  ids.map((i) => ({
                    did: i.did,
                    displayName: i.display_name,
                    isDefault: i.is_default === 1,
                    createdAt: i.created_at,
                  })),
                  null,
                  2,
                ),
              );
            else if (ids.length === 0) out('ℹ No DID identities. Create one with "chainlesschain did create"');
            else {
              out(`DID Identities (${ids.length}):\n`);
              for (const i of ids) {
                out(`  ${i.did}${i.display_name ? ` (${i.display_name})` : ''}${i.is_default ? ' [default]' : ''}`);
                out(`    created: ${i.created_at}`);
              }
            }
          }),
      },
      show: {
        args: [{ name: 'did', required: true }],
        options: [JSON_OPT],
        run: ({ opts, positionals }) =>
          withDb((data) => {
            const arg = positionals[0];
            const i = data.dids.find((x) => x.did.startsWith(arg));
            if (!i) {
              err(`✖ Identity not found: ${arg}`);
              out('[DatabaseManager] Database closed');
              process.exit(1);
            }
            if (opts.json) {
              return out(
                JSON.stringify(
                  {
                    did: i.did,
                    displayName: i.display_name,
                    publicKey: i.public_key,
                    isDefault: i.is_default === 1,
                    document: i.did_document ?? {},
                    createdAt: i.created_at,
                  },
                  null,
                  2,
                ),
              );
            }
            out('DID Identity:\n');
            out(`  DID:      ${i.did}`);
            out(`  Name:     ${i.display_name || '(none)'}`);
            out(`  Default:  ${i.is_default ? 'yes' : 'no'}`);
            out(`  PubKey:   ${i.public_key}`);
            out(`  Created:  ${i.created_at}`);
          }),
      },
      create: {
        options: [opt('--name <name>'), JSON_OPT],
        run: ({ opts }) =>
          withDb((data) => {
            const did = {
              did: `did:chainless:${randomUUID().replace(/-/g, '')}`,
              display_name: opts.name ?? null,
              public_key: randomUUID().replace(/-/g, ''),
              is_default: data.dids.length === 0 ? 1 : 0,
              created_at: now(),
            };
            data.dids.push(did);
            saveData(data);
            out('✔ DID identity created');
          }),
      },
    },
  },
  ask: {
    description: 'Ask a question (LLM)',
    args: [{ name: 'question', required: true }],
    options: [],
    run: () => fail('ask needs an LLM; not available in the fake'),
  },
  chat: {
    description: 'Interactive chat (LLM)',
    options: [],
    run: () => fail('chat needs an LLM; not available in the fake'),
  },
  agent: {
    description: 'Agentic session (LLM)',
    options: [],
    run: () => fail('agent needs an LLM; not available in the fake'),
  },
  ui: { description: 'Web UI server', options: [], run: () => fail('ui is not available in the fake') },
};

function help(name, cmd) {
  const lines = [`Usage: chainlesschain ${name ? `${name} ` : ''}[options] [command]`, ''];
  if (cmd?.description) lines.push(cmd.description, '');
  lines.push('Commands:');
  for (const [sub, spec] of Object.entries(cmd?.sub ?? COMMANDS))
    lines.push(`  ${sub.padEnd(22)}${spec.description ?? ''}`);
  return lines.join('\n');
}

async function main() {
  const first = argv[0];
  if (first === '--version' || first === '-V' || first === '-v') {
    if (env.FAKE_CC_VERSION_LOG)
      fs.appendFileSync(env.FAKE_CC_VERSION_LOG, `${JSON.stringify({ pid: process.pid, argv })}\n`);
    out(VERSION);
    return 0;
  }
  if (first === undefined || first === '--help' || first === '-h') {
    (first === undefined ? err : out)(help('', undefined));
    return first === undefined ? 1 : 0;
  }
  if (first.startsWith('-')) fail(`unknown option '${first}'`);
  const cmd = COMMANDS[first];
  if (!cmd) fail(`unknown command '${first}'`);
  await testBehaviours();

  let spec = cmd;
  let rest = argv.slice(1);
  if (cmd.sub) {
    const word = rest[0];
    const match =
      word && Object.entries(cmd.sub).find(([name, s]) => name === word || (s.aliases ?? []).includes(word));
    if (match) {
      spec = match[1];
      rest = rest.slice(1);
    } else if (cmd.defaultSub && (word === undefined || word.startsWith('-') || !Object.hasOwn(cmd.sub, word))) {
      spec = cmd.sub[cmd.defaultSub];
    } else if (word === undefined) {
      err(help(first, cmd));
      return 1;
    } else if (word === '--help' || word === '-h') {
      out(help(first, cmd));
      return 0;
    } else if (word.startsWith('-')) fail(`unknown option '${word}'`);
    else fail(`unknown command '${word}'`);
  }
  const parsed = parse(rest, { options: spec.options ?? [], args: spec.args });
  const code = await spec.run(parsed);
  return typeof code === 'number' ? code : 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    err(`✖ Failed: ${e instanceof Error ? e.message : String(e)}`);
    process.exitCode = 1;
  },
);
