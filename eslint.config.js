// Lint rules that enforce the rooms' import boundaries (docs/design.md, "Rooms"):
// arrows point one way between rooms, and each platform SDK is imported only inside its own folder.
import tseslint from 'typescript-eslint';

const SDKS = {
  lark: '@larksuiteoapi/node-sdk',
  agent: '@anthropic-ai/claude-agent-sdk',
  openai: 'openai',
  anthropic: '@anthropic-ai/sdk',
};

/** Builds a no-restricted-imports rule from forbidden rooms and SDKs. */
function forbid({ rooms = [], sdks = [] }) {
  return [
    'error',
    {
      paths: sdks.map((name) => ({
        name,
        message: 'Platform SDKs are imported only inside their own folder (docs/design.md, "Rooms").',
      })),
      patterns: [
        ...sdks.map((name) => ({
          group: [`${name}/*`],
          message: 'Platform SDKs are imported only inside their own folder.',
        })),
        ...rooms.map((room) => ({
          group: [`**/${room}/*`, `**/${room}`],
          message: `This room may not import from ${room}/ (docs/design.md, "Rooms": arrows point one way).`,
        })),
      ],
    },
  ];
}

const ALL_SDKS = Object.values(SDKS);
const except = (...keep) => ALL_SDKS.filter((s) => !keep.includes(s));

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'test-artifacts/**', 'src/channels/web/ui/dist/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    files: ['src/core/**'],
    rules: {
      'no-restricted-imports': forbid({
        rooms: ['store', 'process', 'sessions', 'claude', 'bridge', 'channels', 'ccexec', 'cli'],
        sdks: ALL_SDKS,
      }),
    },
  },
  {
    files: ['src/store/**'],
    rules: {
      'no-restricted-imports': forbid({
        rooms: ['process', 'sessions', 'claude', 'bridge', 'channels', 'ccexec', 'cli'],
        sdks: ALL_SDKS,
      }),
    },
  },
  {
    files: ['src/process/**'],
    rules: {
      'no-restricted-imports': forbid({
        rooms: ['store', 'sessions', 'claude', 'bridge', 'channels', 'ccexec', 'cli'],
        sdks: ALL_SDKS,
      }),
    },
  },
  {
    files: ['src/sessions/**'],
    rules: {
      'no-restricted-imports': forbid({
        rooms: ['process', 'claude', 'bridge', 'channels', 'ccexec', 'cli'],
        sdks: ALL_SDKS,
      }),
    },
  },
  {
    files: ['src/claude/**'],
    rules: {
      'no-restricted-imports': forbid({ rooms: ['bridge', 'channels', 'ccexec', 'cli'], sdks: except(SDKS.agent) }),
    },
  },
  {
    files: ['src/bridge/**'],
    rules: { 'no-restricted-imports': forbid({ rooms: ['channels', 'ccexec', 'cli'], sdks: ALL_SDKS }) },
  },
  {
    files: ['src/channels/feishu/**'],
    rules: {
      'no-restricted-imports': forbid({
        rooms: ['web', 'ccexec', 'cli', 'process', 'claude'],
        sdks: except(SDKS.lark),
      }),
    },
  },
  {
    files: ['src/channels/web/**'],
    rules: { 'no-restricted-imports': forbid({ rooms: ['feishu', 'cli'], sdks: ALL_SDKS }) },
  },
  {
    files: ['src/ccexec/**'],
    ignores: ['src/ccexec/providers/**'],
    rules: {
      'no-restricted-imports': forbid({
        rooms: ['store', 'sessions', 'claude', 'bridge', 'channels', 'cli'],
        sdks: ALL_SDKS,
      }),
    },
  },
  {
    files: ['src/ccexec/providers/**'],
    rules: {
      'no-restricted-imports': forbid({
        rooms: ['store', 'sessions', 'claude', 'bridge', 'channels', 'cli'],
        sdks: except(SDKS.openai, SDKS.anthropic),
      }),
    },
  },
  { files: ['src/cli/**'], rules: { 'no-restricted-imports': forbid({ sdks: ALL_SDKS }) } },
);
