// Nine end-to-end scenarios of the cc_exec chat (E1–E9: list, search, skills, status, a refused
// delete, plain chat, cancel, a two-step lookup, a repeated call), automated: the real `openai` /
// `@anthropic-ai/sdk` clients against scripted SSE servers on 127.0.0.1, the fake ChainlessChain CLI
// in a temp HOME, all through createGateway — the same entry point the web console, the terminal chat
// and `/cc` use.
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { readAudit } from '../../src/ccexec/audit-log.js';
import { summarizeRun } from '../../src/ccexec/answer-card-text.js';
import { createGateway } from '../../src/ccexec/create-gateway.js';
import { plainChatGuardMessage } from '../../src/ccexec/providers/plain-chat-guard.js';
import { isGroupGone } from '../fakes/fake-children.js';
import { isProcessRunning } from '../fakes/fake-chainlesschain/fake-cli.js';
import { harnessLogger } from '../fakes/fake-chainlesschain/gateway-harness.js';
import { openaiTextTurn, openaiToolCallTurn } from '../fakes/fake-llm/fake-openai-server.js';
import { cards, cc, openaiMessages, pieces, states, useGateway } from './ccexec-gateway-rig.js';

const { setup, groups } = useGateway();

describe('E1–E9 through createGateway with the fake OpenAI server and the fake CLI', () => {
  it('E1: "列一下最近的 10 个 note" → cc note list --limit 10, all states in order, exit 0', async () => {
    const { h, gateway } = await setup();
    h.openai.enqueue(
      openaiToolCallTurn({
        id: 'call_e1',
        name: 'cc_exec',
        argPieces: pieces(cc('note', ['list', '--limit', '10'])),
        prefix: '我帮你查一下…',
      }),
      openaiTextTurn('你最近的笔记：', 'Gateway design、RAG 检索增强笔记、购物清单。'),
    );
    expect(await gateway.availability()).toMatchObject({ status: 'available', version: '0.165.7' });
    const chat = gateway.newChat();
    const result = await chat.run('列一下最近的 10 个 note');
    expect(result.state).toBe('COMPLETE');
    expect(states(result.events)).toEqual([
      'THINKING',
      'TOOL_CALLED',
      'TOOL_RUNNING',
      'TOOL_DONE',
      'FINALIZING',
      'COMPLETE',
    ]);
    const [card] = cards(result.events);
    expect(card).toMatchObject({ commandLine: 'cc note list --limit 10', exitCode: 0, decision: 'allowed' });
    expect(card?.preview.split('\n')[0]).toBe('Notes (3):');
    expect(card?.stdout).toContain('RAG 检索增强笔记');
    expect(result.answer).toBe('你最近的笔记：Gateway design、RAG 检索增强笔记、购物清单。');
    // The model saw the plain-text tool result, CJK intact, without the CLI's log lines or the home directory.
    const toolMsg = openaiMessages(h, 1).messages.find((m) => m.role === 'tool');
    expect(toolMsg?.tool_call_id).toBe('call_e1');
    expect(String(toolMsg?.content)).toMatch(
      /^exitCode=0\nduration=\d+ms\nstdout \(truncated to 4KB if needed\):\nNotes \(3\):/,
    );
    expect(String(toolMsg?.content)).not.toMatch(/DatabaseManager|AppConfig/);
    expect(String(toolMsg?.content)).not.toContain(h.fake.home);
    expect(h.cliCalls()).toEqual([['note', 'list', '--limit', '10']]);
    const audit = await readAudit(h.paths.auditFile);
    expect(audit).toEqual([
      expect.objectContaining({
        provider: 'openai',
        model: 'gpt-4o-mini',
        chat: chat.id,
        command: 'note',
        args: ['list', '--limit', '10'],
        decision: 'allowed',
        exit: 0,
      }),
    ]);
    expect(summarizeRun(result.events, 'zh')).toMatch(/^🔧 cc note list --limit 10 · exit 0 · \d+ms\n\n你最近的笔记/);
  });

  it('E2: "搜一下 RAG 相关笔记" → cc search RAG --top-k 5 (the real limit flag), hits; no hits explained', async () => {
    const { h, gateway } = await setup();
    h.openai.enqueue(
      openaiToolCallTurn({ id: 'c1', name: 'cc_exec', argPieces: [cc('search', ['RAG'])] }),
      openaiTextTurn('找到：RAG 检索增强笔记。'),
    );
    const chat = gateway.newChat();
    const hit = await chat.run('搜一下 RAG 相关笔记');
    expect(cards(hit.events)[0]).toMatchObject({ commandLine: 'cc search RAG --top-k 5', exitCode: 0 });
    expect(hit.events.find((e) => e.type === 'TOOL_CALLED')).toMatchObject({ commandLine: 'cc search RAG' });
    expect(hit.events.find((e) => e.type === 'TOOL_RUNNING')).toMatchObject({
      commandLine: 'cc search RAG --top-k 5',
      argv: ['search', 'RAG', '--top-k', '5'],
    });
    expect(cards(hit.events)[0]?.stdout).toContain('RAG 检索增强笔记');

    h.openai.enqueue(
      openaiToolCallTurn({ id: 'c2', name: 'cc_exec', argPieces: [cc('search', ['量子计算', '--mode', 'bm25'])] }),
      openaiTextTurn('未找到，可能还没有相关笔记。'),
    );
    const miss = await chat.run('搜一下量子计算');
    expect(cards(miss.events)[0]).toMatchObject({
      commandLine: 'cc search 量子计算 --mode bm25 --top-k 5',
      exitCode: 0,
    });
    expect(cards(miss.events)[0]?.stdout).toBe('ℹ No results for "量子计算"\n');
    expect(miss.answer).toContain('未找到');
  });

  it('E3: "我有什么 skill？" → cc skill list --json, parseable, paraphrased', async () => {
    const { h, gateway } = await setup();
    h.openai.enqueue(
      openaiToolCallTurn({ id: 'c1', name: 'cc_exec', argPieces: [cc('skill', ['list', '--json'])] }),
      openaiTextTurn('你装了 2 个技能：笔记总结、代码评审。'),
    );
    const result = await gateway.newChat().run('我有什么 skill？');
    const card = cards(result.events)[0];
    expect(card).toMatchObject({ commandLine: 'cc skill list --json', exitCode: 0 });
    expect((JSON.parse(card?.stdout ?? '') as Array<{ name: string }>).map((s) => s.name)).toEqual([
      'note-summarizer',
      'code-review',
    ]);
    expect(result.answer).not.toContain('{');
  });

  it('E4: "查一下 cc 跑得起来吗" → cc status', async () => {
    const { h, gateway } = await setup();
    h.openai.enqueue(
      openaiToolCallTurn({ id: 'c1', name: 'cc_exec', argPieces: ['{"command":"status","subargs":[]}'] }),
      openaiTextTurn('运行正常，版本 0.165.7。'),
    );
    const result = await gateway.newChat().run('查一下 cc 跑得起来吗');
    expect(cards(result.events)[0]).toMatchObject({ commandLine: 'cc status', exitCode: 0 });
    expect(cards(result.events)[0]?.stdout).toContain('Version:   0.165.7');
  });

  it('E5: "帮我把所有笔记删了" → denied (126), nothing runs, data untouched', async () => {
    const { h, gateway } = await setup();
    const before = fs.readFileSync(h.fake.dataFile, 'utf8');
    h.openai.enqueue(
      openaiToolCallTurn({ id: 'c1', name: 'cc_exec', argPieces: [cc('note', ['delete', '--all'])] }),
      openaiTextTurn('该操作 v1 暂不支持，请在终端手动执行。'),
    );
    const result = await gateway.newChat().run('帮我把所有笔记删了');
    expect(cards(result.events)[0]).toMatchObject({
      decision: 'denied',
      exitCode: 126,
      commandLine: 'cc note delete --all',
    });
    const toolMsg = openaiMessages(h, 1).messages.find((m) => m.role === 'tool');
    expect(String(toolMsg?.content)).toMatch(/^exitCode=126\n[\s\S]*command not allowed in read-only mode: /);
    expect(result.answer).toContain('暂不支持');
    expect(h.cliCalls()).toEqual([]);
    expect(fs.readFileSync(h.fake.dataFile, 'utf8')).toBe(before);
    expect((await readAudit(h.paths.auditFile))[0]).toMatchObject({
      decision: 'denied',
      exit: 126,
      command: 'note',
      args: ['delete', '--all'],
    });
  });

  it('E6: a plain-chat model (Qwen) gets no tools, the guard, and the badge says why', async () => {
    const { h, gateway } = await setup();
    expect(await gateway.availability({ provider: 'qwen' })).toMatchObject({
      status: 'no-tools-for-model',
      provider: 'qwen',
    });
    h.openai.enqueue(openaiTextTurn('本模型不支持工具调用，请切换到 OpenAI/Doubao/Anthropic 模型。'));
    const chat = gateway.newChat({ provider: 'qwen' });
    expect(chat.provider.supportsTools).toBe(false);
    const result = await chat.run('列下笔记');
    expect(result.state).toBe('COMPLETE');
    const body = openaiMessages(h, 0);
    expect(body.tools).toBeUndefined();
    expect(body.messages[0]).toEqual({ role: 'system', content: plainChatGuardMessage('zh').content });
    expect(h.cliCalls()).toEqual([]);
  });

  it('E7: cancel while the CLI runs → CANCELLED, the whole group (grandchild too) is gone', async () => {
    const { h } = await setup({
      env: { FAKE_CC_SLOW_MS: '20000', FAKE_CC_SPAWN_GRANDCHILD: '1', FAKE_CC_IGNORE_TERM: '1' },
    });
    const pidFile = path.join(h.fake.home, 'pids');
    const withPidFile = createGateway({
      config: h.config,
      paths: h.paths,
      env: { ...h.env, FAKE_CC_PID_FILE: pidFile },
      lang: 'zh',
      logger: harnessLogger,
    });
    h.openai.enqueue(openaiToolCallTurn({ id: 'c1', name: 'cc_exec', argPieces: [cc('note', ['list'])] }));
    const chat = withPidFile.newChat();
    const running = chat.run('列一下笔记');
    let pids: number[] = [];
    for (let i = 0; i < 500 && pids.length === 0; i++) {
      const text = fs.existsSync(pidFile) ? fs.readFileSync(pidFile, 'utf8') : '';
      if (text.endsWith('\n')) pids = text.trim().split(' ').map(Number);
      else await sleep(10);
    }
    const [pgid, grandchild] = pids as [number, number];
    groups.add(pgid);
    expect(isGroupGone(pgid)).toBe(false);
    chat.cancel();
    const result = await running;
    expect(result.state).toBe('CANCELLED');
    expect(states(result.events)).toEqual(['THINKING', 'TOOL_CALLED', 'TOOL_RUNNING', 'TOOL_DONE', 'CANCELLED']);
    expect(isGroupGone(pgid)).toBe(true);
    expect(isProcessRunning(grandchild)).toBe(false);
    expect(chat.history()).toEqual([]);
    expect(h.openai.pending()).toBe(0);
  });

  it('E8: "找出我那篇关于 RAG 的笔记内容" → search, then note show <id>; two cards, no limit hit', async () => {
    const { h, gateway } = await setup();
    h.openai.enqueue(
      openaiToolCallTurn({ id: 'c1', name: 'cc_exec', argPieces: pieces(cc('search', ['RAG', '--top-k', '5'])) }),
      openaiToolCallTurn({ id: 'c2', name: 'cc_exec', argPieces: pieces(cc('note', ['show', '7a1c2e90'])) }),
      openaiTextTurn('那篇笔记写的是：RAG = 检索增强生成。'),
    );
    const result = await gateway.newChat().run('找出我那篇关于 RAG 的笔记内容');
    expect(cards(result.events).map((c) => c.commandLine)).toEqual([
      'cc search RAG --top-k 5',
      'cc note show 7a1c2e90',
    ]);
    expect(cards(result.events)[1]?.stdout).toContain('RAG = 检索增强生成。先用 BM25 召回，再向量重排。');
    expect(result.events.some((e) => e.type === 'notice' && e.code === 'tool-limit-reached')).toBe(false);
    expect(h.cliCalls()).toHaveLength(2);
    expect(result.answer).toContain('检索增强生成');
  });

  it('E9: the same search three times → the CLI runs once, then the model answers in text', async () => {
    const { h, gateway } = await setup();
    const same = cc('search', ['RAG']);
    h.openai.enqueue(
      openaiToolCallTurn({ id: 'c1', name: 'cc_exec', argPieces: [same] }),
      openaiToolCallTurn({ id: 'c2', name: 'cc_exec', argPieces: [same] }),
      openaiToolCallTurn({ id: 'c3', name: 'cc_exec', argPieces: ['{"subargs":["RAG"],"command":"search"}'] }),
      openaiTextTurn('按现有结果：只有一篇 RAG 笔记。'),
    );
    const result = await gateway.newChat().run('用相同参数再搜三次 RAG');
    expect(cards(result.events).map((c) => c.decision)).toEqual(['allowed', 'duplicate', 'duplicate']);
    expect(h.cliCalls()).toEqual([['search', 'RAG', '--top-k', '5']]);
    expect(openaiMessages(h, 3).tools).toBeUndefined();
    expect(result).toMatchObject({ state: 'COMPLETE', answer: '按现有结果：只有一篇 RAG 笔记。' });
    expect((await readAudit(h.paths.auditFile)).map((r) => r.decision)).toEqual(['allowed', 'duplicate', 'duplicate']);
  });
});
