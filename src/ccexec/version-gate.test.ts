import { describe, expect, it } from 'vitest';
import { GateError } from './gate-error.js';
import {
  MIN_CC_VERSION,
  checkCliVersion,
  cliStatusMessage,
  compareSemver,
  parseCliVersion,
  parseSemver,
  type CliStatus,
} from './version-gate.js';

describe('compareSemver', () => {
  it.each([
    ['0.165.7', '0.165.7', 0],
    ['v0.165.7', '0.165.7', 0],
    ['0.165.7+build.5', '0.165.7', 0],
    ['0.165.7-beta.1', '0.165.7', -1],
    ['0.165.7', '0.165.7-beta.1', 1],
    ['0.165.10', '0.165.9', 1],
    ['0.164.99', '0.165.0', -1],
    ['1.0.0', '0.999.999', 1],
    ['0.165.0-rc.1', '0.165.0', -1],
  ] as const)('%s vs %s → %i', (a, b, expected) => {
    expect(compareSemver(a, b)).toBe(expected);
  });

  it('orders pre-releases as Semantic Versioning 2.0 does', () => {
    const chain = [
      '1.0.0-alpha',
      '1.0.0-alpha.1',
      '1.0.0-alpha.beta',
      '1.0.0-beta',
      '1.0.0-beta.2',
      '1.0.0-beta.11',
      '1.0.0-rc.1',
      '1.0.0',
    ];
    for (let i = 0; i < chain.length - 1; i++) {
      expect(compareSemver(chain[i] as string, chain[i + 1] as string), `${chain[i]} < ${chain[i + 1]}`).toBe(-1);
      expect(compareSemver(chain[i + 1] as string, chain[i] as string)).toBe(1);
    }
  });

  it('throws a GateError for something that is not a version', () => {
    expect(() => compareSemver('abc', '1.0.0')).toThrow(GateError);
    expect(() => compareSemver('1.0', '1.0.0')).toThrow(/not a semantic version/);
  });

  it('parses the parts', () => {
    expect(parseSemver('v0.165.7-beta.1+sha')).toEqual({ major: 0, minor: 165, patch: 7, prerelease: ['beta', '1'] });
    expect(parseSemver('0.165')).toBeNull();
  });
});

describe('parseCliVersion', () => {
  it.each([
    ['0.165.7\n', '0.165.7'],
    ['v0.165.7\n', '0.165.7'],
    ['0.165.7-beta.1', '0.165.7-beta.1'],
    ['  0.165.7  \n', '0.165.7'],
    ['\u001b[32m0.165.7\u001b[39m\n', '0.165.7'],
    ['[AppConfig] Configuration loaded\n0.165.7\n', '0.165.7'],
    // Only the CLI's own output, a bare version, counts — not a version somewhere in another banner.
    ['chainlesschain/0.165.7 linux-x64 node-v20.19.0\n', null],
    ['ChainlessChain CLI v1.2.3 (build 7)', null],
    ['cc (Debian 12.2.0-14) 12.2.0\nCopyright (C) 2022 Free Software Foundation, Inc.\n', null],
    ['Apple clang version 15.0.0 (clang-1500.3.9.4)\n', null],
    ['Python 3.11.2\n', null],
    ['0.165.7\n0.165.8\n', null],
    ['', null],
    ['error: unknown option', null],
    ['version 0.165', null],
  ] as const)('%j → %s', (stdout, expected) => {
    expect(parseCliVersion(stdout)).toBe(expected);
  });
});

describe('checkCliVersion', () => {
  const run = (result: { exitCode: number | null; stdout: string; spawnErrorCode?: string }) => async () => result;

  it('uses 0.165.0 as the floor (the interface the allowlist was verified against)', () => {
    expect(MIN_CC_VERSION).toBe('0.165.0');
  });

  it.each<[string, { exitCode: number | null; stdout: string; spawnErrorCode?: string }, CliStatus]>([
    ['the current CLI', { exitCode: 0, stdout: '0.165.7\n' }, { status: 'available', version: '0.165.7' }],
    ['exactly the minimum', { exitCode: 0, stdout: '0.165.0\n' }, { status: 'available', version: '0.165.0' }],
    ['a newer major with v prefix', { exitCode: 0, stdout: 'v1.0.0\n' }, { status: 'available', version: '1.0.0' }],
    [
      'the 0.162.x CLI some Android devices ship',
      { exitCode: 0, stdout: '0.162.2\n' },
      { status: 'cli-too-old', version: '0.162.2', min: '0.165.0' },
    ],
    [
      'a pre-release of the minimum',
      { exitCode: 0, stdout: '0.165.0-rc.1\n' },
      { status: 'cli-too-old', version: '0.165.0-rc.1', min: '0.165.0' },
    ],
    ['no binary', { exitCode: null, stdout: '', spawnErrorCode: 'ENOENT' }, { status: 'cli-not-found' }],
    [
      'not executable',
      { exitCode: null, stdout: '', spawnErrorCode: 'EACCES' },
      { status: 'cli-broken', detail: 'could not start the CLI (EACCES)' },
    ],
    [
      'a failing --version',
      { exitCode: 1, stdout: '' },
      { status: 'cli-broken', detail: '--version exited with code 1' },
    ],
    [
      'a killed --version',
      { exitCode: null, stdout: '' },
      { status: 'cli-broken', detail: '--version did not exit normally' },
    ],
    [
      'unreadable output',
      { exitCode: 0, stdout: 'hello\n' },
      {
        status: 'cli-broken',
        detail:
          "unrecognised --version output 'hello', not the ChainlessChain CLI (it prints only its version, e.g. 0.165.7)",
      },
    ],
    [
      'the C compiler (cc --version)',
      { exitCode: 0, stdout: 'cc (Debian 12.2.0-14) 12.2.0\nCopyright (C) 2022 Free Software Foundation, Inc.\n' },
      {
        status: 'cli-broken',
        detail:
          "unrecognised --version output 'cc (Debian 12.2.0-14) 12.2.0', not the ChainlessChain CLI (it prints only its version, e.g. 0.165.7)",
      },
    ],
  ])('%s', async (_title, result, expected) => {
    expect(await checkCliVersion(run(result))).toEqual(expected);
  });

  it('fails closed when running --version throws, without leaking a key in the detail', async () => {
    const status = await checkCliVersion(async () => {
      throw new Error('spawn failed with OPENAI_API_KEY=sk-abcdefghijklmnopqrstuvwxyz');
    });
    expect(status.status).toBe('cli-broken');
    expect(JSON.stringify(status)).not.toContain('sk-abcdefghijklmnopqrstuvwxyz');
  });

  it('accepts another minimum', async () => {
    expect(await checkCliVersion(run({ exitCode: 0, stdout: '0.165.7' }), '0.166.0')).toEqual({
      status: 'cli-too-old',
      version: '0.165.7',
      min: '0.166.0',
    });
  });
});

describe('cliStatusMessage', () => {
  it('says why the tool is off, in zh and en', () => {
    expect(cliStatusMessage({ status: 'cli-not-found' }, 'zh', 'chainlesschain')).toContain(
      '找不到 ChainlessChain CLI（chainlesschain）',
    );
    expect(cliStatusMessage({ status: 'cli-not-found' }, 'en')).toContain('not found (chainlesschain)');
    expect(cliStatusMessage({ status: 'cli-too-old', version: '0.162.2', min: '0.165.0' }, 'zh')).toContain(
      '版本过旧（0.162.2，需要 ≥ 0.165.0）',
    );
    expect(cliStatusMessage({ status: 'cli-too-old', version: '0.162.2', min: '0.165.0' }, 'en')).toContain(
      'too old (0.162.2, need ≥ 0.165.0)',
    );
    expect(
      cliStatusMessage({ status: 'cli-broken', detail: '--version exited with code 1' }, 'en', 'node x.js'),
    ).toContain('node x.js) does not run properly: --version exited with code 1');
    expect(cliStatusMessage({ status: 'cli-broken', detail: 'x' }, 'zh')).toContain('无法正常运行：x');
    expect(cliStatusMessage({ status: 'available', version: '0.165.7' }, 'zh')).toContain('工具调用可用');
    expect(cliStatusMessage({ status: 'available', version: '0.165.7' }, 'en')).toContain('0.165.7');
  });
});
