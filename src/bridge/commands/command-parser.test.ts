import { describe, expect, it } from 'vitest';
import { parseChatCommand, type ChatCommand } from './command-parser.js';

const cases: Array<[string, ChatCommand | null]> = [
  // plain text
  ['帮我看看 README', null],
  ['', null],
  ['   ', null],
  ['hello /help', null],
  ['/Users/me/x 这个目录是什么', null],
  ['/帮助', null],
  ['/usr/bin 下有什么', null],
  // simple commands
  ['/help', { name: 'help' }],
  ['/HELP', { name: 'help' }],
  ['  /help  ', { name: 'help' }],
  ['/help me please', { name: 'help' }],
  ['／help', { name: 'help' }],
  ['/whoami', { name: 'whoami' }],
  ['/status', { name: 'status' }],
  ['/Status', { name: 'status' }],
  // list
  ['/list', { name: 'list', args: '' }],
  ['/list 2', { name: 'list', args: '2' }],
  ['/LIST   2  ', { name: 'list', args: '2' }],
  // listDir
  ['/listDir', { name: 'listDir' }],
  ['/listdir', { name: 'listDir' }],
  ['/LISTDIR ~/Git', { name: 'listDir', path: '~/Git' }],
  ['/listDir "~/My Projects"', { name: 'listDir', path: '~/My Projects' }],
  // new
  ['/new', { name: 'new' }],
  ['/new ~/Git/cc-linker', { name: 'new', cwd: '~/Git/cc-linker' }],
  [
    '/new ~/Git/cc-linker -- 帮我先梳理这个项目的架构',
    { name: 'new', cwd: '~/Git/cc-linker', prompt: '帮我先梳理这个项目的架构' },
  ],
  ['/new -- 帮我检查默认项目里的 README 是否完整', { name: 'new', prompt: '帮我检查默认项目里的 README 是否完整' }],
  ['/new ~/x --model sonnet -- do it', { name: 'new', cwd: '~/x', model: 'sonnet', prompt: 'do it' }],
  ['/new --model sonnet ~/x -- do it', { name: 'new', cwd: '~/x', model: 'sonnet', prompt: 'do it' }],
  ['/new ~/x --model=opus', { name: 'new', cwd: '~/x', model: 'opus' }],
  ['/new --model sonnet', { name: 'new', model: 'sonnet' }],
  ['/new ~/x -- a -- b', { name: 'new', cwd: '~/x', prompt: 'a -- b' }],
  ['/new ~/x --', { name: 'new', cwd: '~/x' }],
  ['/new ~/My Projects/app', { name: 'new', cwd: '~/My Projects/app' }],
  ['/new "~/My Projects/app" -- hi', { name: 'new', cwd: '~/My Projects/app', prompt: 'hi' }],
  ['/new ~/x --\nline one\nline two', { name: 'new', cwd: '~/x', prompt: 'line one\nline two' }],
  ['/new ~/x\u3000--\u3000全角空格', { name: 'new', cwd: '~/x', prompt: '全角空格' }],
  ['/new ~/x --model', { name: 'usage', command: 'new', problem: 'missing-model-alias' }],
  ['/new ~/x --model -- hi', { name: 'usage', command: 'new', problem: 'missing-model-alias' }],
  ['/new ~/x --force', { name: 'usage', command: 'new', problem: 'unknown-option' }],
  ['/new ~/x--y', { name: 'new', cwd: '~/x--y' }],
  ['/NEW    ~/x    --    hi  ', { name: 'new', cwd: '~/x', prompt: 'hi' }],
  // switch / resume
  ['/switch 1', { name: 'switch', ref: { index: 1 } }],
  ['/switch   12  ', { name: 'switch', ref: { index: 12 } }],
  ['/switch 8c4b', { name: 'switch', ref: { prefix: '8c4b' } }],
  ['/switch 8C4B1297', { name: 'switch', ref: { prefix: '8c4b1297' } }],
  ['/switch 81234567', { name: 'switch', ref: { prefix: '81234567' } }],
  ['/switch 0', { name: 'switch', ref: { index: 0 } }],
  ['/switch', { name: 'usage', command: 'switch', problem: 'missing-argument' }],
  ['/switch    ', { name: 'usage', command: 'switch', problem: 'missing-argument' }],
  ['/resume 3', { name: 'resume', ref: { index: 3 } }],
  ['/resume a402c07a-1111', { name: 'resume', ref: { prefix: 'a402c07a-1111' } }],
  ['/Resume', { name: 'usage', command: 'resume', problem: 'missing-argument' }],
  // model
  ['/model', { name: 'model' }],
  ['/model 2', { name: 'model', arg: { index: 2 } }],
  ['/model sonnet', { name: 'model', arg: { alias: 'sonnet' } }],
  ['/model claude-sonnet-4-5', { name: 'model', arg: { alias: 'claude-sonnet-4-5' } }],
  ['/model --clear', { name: 'model', arg: { clear: true } }],
  ['/model --CLEAR', { name: 'model', arg: { clear: true } }],
  ['/model --reset', { name: 'usage', command: 'model', problem: 'unknown-option' }],
  // search / cc
  ['/search README', { name: 'search', keyword: 'README' }],
  ['/search  remote debug ', { name: 'search', keyword: 'remote debug' }],
  ['/search', { name: 'usage', command: 'search', problem: 'missing-argument' }],
  ['/cc 我有哪些笔记', { name: 'cc', question: '我有哪些笔记' }],
  ['/cc', { name: 'usage', command: 'cc', problem: 'missing-argument' }],
  // typed answers to a permission prompt
  ['/allow', { name: 'answer', decision: 'allow', index: 1 }],
  ['/allow 2', { name: 'answer', decision: 'allow', index: 2 }],
  ['  /DENY   3 ', { name: 'answer', decision: 'deny', index: 3 }],
  ['/always', { name: 'answer', decision: 'always', index: 1 }],
  ['／allow\u30002', { name: 'answer', decision: 'allow', index: 2 }],
  ['/allow 0', { name: 'answer', decision: 'allow', index: 0 }],
  ['/allow 1234', { name: 'unknown', raw: '/allow 1234' }],
  ['/deny all', { name: 'unknown', raw: '/deny all' }],
  ['/allow 2 please', { name: 'unknown', raw: '/allow 2 please' }],
  // unknown
  ['/foo', { name: 'unknown', raw: '/foo' }],
  ['/foo bar baz', { name: 'unknown', raw: '/foo bar baz' }],
  ['/', { name: 'unknown', raw: '/' }],
  ['/list_dir', { name: 'unknown', raw: '/list_dir' }],
];

describe('parseChatCommand', () => {
  it('has a broad table', () => {
    expect(cases.length).toBeGreaterThanOrEqual(40);
  });

  it.each(cases)('%j', (input, expected) => {
    expect(parseChatCommand(input)).toEqual(expected);
  });
});

describe('parseChatCommand: /stop and /queue', () => {
  it.each([
    ['/stop', { name: 'stop', all: false }],
    ['/STOP', { name: 'stop', all: false }],
    ['／stop all', { name: 'stop', all: true }],
    ['/stop ALL', { name: 'stop', all: true }],
    ['/queue', { name: 'queue' }],
  ])('%s', (text, expected) => {
    expect(parseChatCommand(text)).toEqual(expected);
  });

  it('anything else after /stop is an unknown command, so a typo stops nothing', () => {
    expect(parseChatCommand('/stop everything')).toEqual({ name: 'unknown', raw: '/stop everything' });
  });
});
