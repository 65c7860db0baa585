// Lint rules that enforce the rooms' import boundaries (docs/design.md, "Rooms"): arrows point one
// way between rooms and between the folders inside a room, and each platform SDK is imported only
// inside its own folder. Each folder's README says the same in words.
import tseslint from 'typescript-eslint';

const SDKS = {
  lark: '@larksuiteoapi/node-sdk',
  agent: '@anthropic-ai/claude-agent-sdk',
  openai: 'openai',
  anthropic: '@anthropic-ai/sdk',
  acp: '@agentclientprotocol/sdk',
  grammy: 'grammy',
  grammyRetry: '@grammyjs/auto-retry',
  slack: '@slack/bolt',
  slackWeb: '@slack/web-api',
  slackSocket: '@slack/socket-mode',
  dingtalk: 'dingtalk-stream',
};
const ALL_SDKS = Object.values(SDKS);
const ROOMS = [
  'core',
  'store',
  'process',
  'sessions',
  'engine',
  'claude',
  'agents',
  'bridge',
  'channels',
  'ccexec',
  'workspace',
  'speech',
  'cli',
];

/**
 * What each room may import (besides itself and Node built-ins), and which SDKs it owns. A room
 * not listed under `may` is forbidden. `channels/*` name their sibling channel as a room too.
 */
const ROOM_RULES = {
  core: { may: [] },
  store: { may: ['core'] },
  process: { may: ['core'] },
  sessions: { may: ['core', 'store'] },
  engine: { may: ['core', 'store', 'process', 'sessions'] },
  claude: { may: ['core', 'store', 'process', 'sessions', 'engine'], sdks: [SDKS.agent] },
  agents: { may: ['core', 'store', 'process', 'sessions', 'engine'] },
  'agents/acp': { may: ['core', 'store', 'process', 'sessions', 'engine', 'agents'], sdks: [SDKS.acp] },
  bridge: { may: ['core', 'store', 'sessions', 'engine'] },
  'channels/feishu': {
    may: ['core', 'bridge', 'channels'],
    forbid: ['web', 'telegram', 'slack', 'dingtalk'],
    sdks: [SDKS.lark],
  },
  'channels/telegram': {
    may: ['core', 'bridge', 'channels'],
    forbid: ['web', 'feishu', 'slack', 'dingtalk'],
    sdks: [SDKS.grammy, SDKS.grammyRetry],
  },
  'channels/slack': {
    may: ['core', 'bridge', 'channels'],
    forbid: ['web', 'feishu', 'telegram', 'dingtalk'],
    sdks: [SDKS.slack, SDKS.slackWeb, SDKS.slackSocket],
  },
  'channels/dingtalk': {
    may: ['core', 'bridge', 'channels'],
    forbid: ['web', 'feishu', 'telegram', 'slack'],
    sdks: [SDKS.dingtalk],
  },
  'channels/web': {
    may: ['core', 'store', 'sessions', 'bridge', 'ccexec', 'workspace', 'channels'],
    forbid: ['feishu', 'telegram', 'slack', 'dingtalk'],
  },
  ccexec: { may: ['core', 'process'] },
  workspace: { may: ['core', 'process', 'sessions'] },
  'ccexec/providers': { may: ['core', 'ccexec'], sdks: [SDKS.openai, SDKS.anthropic] },
  speech: { may: ['core', 'bridge', 'ccexec'], sdks: [SDKS.openai] },
  cli: { may: ROOMS },
};

/** `no-restricted-imports` patterns for folders (as written in an import) and their message. */
const folders = (names, message) => names.map((name) => ({ group: [`**/${name}/*`, `**/${name}`], message }));

/** The rule for `room`, plus the folder-level patterns of a subfolder. */
function rule(room, extra = []) {
  const { may, forbid = [], sdks = [] } = ROOM_RULES[room];
  const own = room.split('/')[0];
  const rooms = ROOMS.filter((r) => r !== own && !may.includes(r)).concat(forbid);
  const banned = ALL_SDKS.filter((s) => !sdks.includes(s));
  return [
    'error',
    {
      paths: banned.map((name) => ({
        name,
        message: 'Platform SDKs are imported only inside their own folder (docs/design.md, "Rooms").',
      })),
      patterns: [
        ...banned.map((name) => ({
          group: [`${name}/*`],
          message: 'Platform SDKs are imported only inside their own folder.',
        })),
        ...folders(rooms, `This room may not import from there (docs/design.md, "Rooms": arrows point one way).`),
        ...extra,
      ],
    },
  ];
}

/** One config entry: `files` get `room`'s rule plus `extra` (a later entry replaces an earlier one's rule). */
const boundary = (files, room, extra, ignores) => ({
  files,
  ...(ignores ? { ignores } : {}),
  rules: { 'no-restricted-imports': rule(room, extra) },
});

/** Tests may cross a room's inner folders (an end-to-end check of one folder through another). */
const TESTS = ['src/**/*.test.ts'];

/**
 * Two doors that must stay few. Children are spawned through the runner (process/), which sets
 * their environment explicitly; the other spawns are named here (a terminal handed to `claude`,
 * the daemon re-running itself, a synchronous `ps`). Directories are made through
 * core/private-dir.ts, which makes them 0700 whatever the umask; only the service unit, written
 * outside ~/.cc-linker, makes its own.
 */
const SPAWNERS = [
  'src/process/run-process.ts',
  'src/cli/commands/resume.ts',
  'src/cli/commands/start.ts',
  'src/store/process-start-time.ts',
];
const DIR_MAKERS = ['src/core/private-dir.ts', 'src/cli/commands/service.ts'];
const NO_SPAWN = {
  selector: 'Literal[value=/^(node:)?child_process$/]',
  message: 'Spawn children through the runner (process/run-process.ts), which sets their environment.',
};
const NO_MKDIR = {
  selector: 'CallExpression[callee.property.name=/^mkdir(Sync)?$/], ImportSpecifier[imported.name=/^mkdir(Sync)?$/]',
  message: 'Make directories with core/private-dir.ts (0700 whatever the umask).',
};
const doors = (files, selectors, ignores = []) => ({
  files,
  ignores: [...ignores, ...TESTS],
  rules: { 'no-restricted-syntax': ['error', ...selectors] },
});

const inside = (room, names) => folders(names, `Inside ${room}/, folders import one way (see its README).`);

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'test-artifacts/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  doors(['src/**'], [NO_SPAWN, NO_MKDIR], [...SPAWNERS, ...DIR_MAKERS]),
  doors(SPAWNERS, [NO_MKDIR]),
  doors(DIR_MAKERS, [NO_SPAWN]),
  ...['core', 'store', 'process', 'engine', 'claude', 'agents', 'ccexec', 'workspace', 'speech', 'cli'].map((room) =>
    boundary([`src/${room}/**`], room),
  ),
  boundary(['src/agents/acp/**'], 'agents/acp'),

  // sessions/: scan ← hook ← registry ← present; scan ← transcript; scan/ ← scan/agent-files/.
  boundary(['src/sessions/**'], 'sessions'),
  boundary(
    ['src/sessions/scan/**'],
    'sessions',
    inside('sessions', ['hook', 'registry', 'present', 'transcript']),
    TESTS,
  ),
  // scan/agent-files/ (the other agents' readers) builds on the scan's root files, never the reverse.
  boundary(
    ['src/sessions/scan/*.ts'],
    'sessions',
    inside('sessions', ['hook', 'registry', 'present', 'transcript', 'agent-files']),
    TESTS,
  ),
  boundary(['src/sessions/hook/**'], 'sessions', inside('sessions', ['registry', 'present', 'transcript']), TESTS),
  boundary(['src/sessions/registry/**'], 'sessions', inside('sessions', ['present', 'transcript']), TESTS),
  boundary(['src/sessions/present/**'], 'sessions', inside('sessions', ['transcript']), TESTS),
  // transcript/ reads one session's turns for recovery; it needs only the scanner's line facts.
  boundary(['src/sessions/transcript/**'], 'sessions', inside('sessions', ['hook', 'registry', 'present']), TESTS),

  // bridge/: nothing but runtime/ imports runtime/; spool, mapping and prompts stay below the pipeline.
  boundary(['src/bridge/**'], 'bridge', inside('bridge', ['runtime']), ['src/bridge/runtime/**']),
  boundary(['src/bridge/runtime/**'], 'bridge'),
  boundary(['src/bridge/spool/**'], 'bridge', inside('bridge', ['runtime', 'pipeline', 'mapping', 'prompts'])),
  boundary(['src/bridge/mapping/**'], 'bridge', inside('bridge', ['runtime', 'pipeline', 'commands', 'prompts'])),
  boundary(
    ['src/bridge/prompts/**'],
    'bridge',
    inside('bridge', ['runtime', 'pipeline', 'spool', 'mapping', 'commands']),
  ),
  boundary(['src/bridge/commands/**'], 'bridge', inside('bridge', ['runtime', 'pipeline', 'spool'])),
  boundary(['src/bridge/pipeline/**'], 'bridge', [
    ...inside('bridge', ['runtime']),
    { group: ['../bridge.js'], message: 'The pipeline does not import the Bridge that drives it.' },
  ]),

  // channels/: feishu and web never import each other; inside web, http/ knows nothing of the rest.
  boundary(['src/channels/feishu/**'], 'channels/feishu'),
  boundary(['src/channels/telegram/**'], 'channels/telegram'),
  boundary(['src/channels/slack/**'], 'channels/slack'),
  boundary(['src/channels/dingtalk/**'], 'channels/dingtalk'),
  boundary(['src/channels/web/**'], 'channels/web'),
  boundary(['src/channels/web/http/**'], 'channels/web', [
    ...folders(['bridge', 'sessions', 'ccexec', 'console'], 'http/ imports only core/ and store/.'),
    { regex: '^\\.\\./[^./][^/]*$', message: 'http/ may not import the channel files of channels/web/.' },
  ]),
  boundary(
    ['src/channels/web/*.ts'],
    'channels/web',
    folders(['sessions', 'ccexec', 'console'], 'The web channel files do not import the console.'),
    ['src/channels/web/start-web-console.ts', 'src/channels/web/*.test.ts'],
  ),
  boundary(['src/channels/web/console/**'], 'channels/web', [
    { regex: 'start-web-console', message: 'console/ may not import the console assembly.' },
  ]),

  // ccexec/providers/: one model behind one wire protocol; the loop depends on providers, not the reverse.
  boundary(['src/ccexec/providers/**'], 'ccexec/providers', [
    { regex: '^\\.\\./(?!\\.\\./)', message: 'providers/ import only core/ and each other.' },
  ]),

  // cli/: context/ is what every action runs with (core only); commands never see commander or the launcher.
  boundary(['src/cli/context/**'], 'cli', [
    ...folders(
      ROOMS.filter((r) => r !== 'core' && r !== 'cli'),
      'cli/context/ imports only core/.',
    ),
    { group: ['commander'], message: 'Only the launcher uses commander.' },
  ]),
  boundary(
    ['src/cli/commands/**', 'src/cli/setup/**', 'src/cli/format/**'],
    'cli',
    [
      ...folders(['launcher'], 'Commands are data; the launcher registers them.'),
      { group: ['commander'], message: 'Only the launcher uses commander.' },
    ],
    ['src/cli/**/*.test.ts'],
  ),
);
