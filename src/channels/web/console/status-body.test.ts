import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  harnessLogger,
  startGatewayHarness,
  type GatewayHarness,
} from '../../../../test/fakes/fake-chainlesschain/gateway-harness.js';
import { createGateway } from '../../../ccexec/create-gateway.js';
import type { Config } from '../../../core/config-schema.js';
import type { ApiContext } from './api-routes.js';
import { statusBody } from './status-body.js';
import { consoleGatewayFrom } from './gateway-adapter.js';

// `GET /api/status` with the real gateway and the fake ChainlessChain CLI: the CLI's own state and
// the default model's tools are two fields, so a model without tools never reads as a broken CLI.
let h: GatewayHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function status(configure: (config: Config) => void, lang: 'zh' | 'en' = 'zh') {
  h = await startGatewayHarness({ configure });
  const gateway = createGateway({ config: h.config, paths: h.paths, env: h.env, lang, logger: harnessLogger });
  const ctx = { bridge: null, gateway: consoleGatewayFrom(gateway, h.paths.auditFile) } as unknown as ApiContext;
  return statusBody(ctx);
}

describe('statusBody', () => {
  it('a plain-chat default model: the CLI is available, the model has no tools (and why)', async () => {
    const body = await status((c) => {
      c.ccexec.default_provider = 'qwen';
    });
    expect(body.cli).toMatchObject({ status: 'available', version: '0.165.7' });
    expect(body.model).toMatchObject({ status: 'no-tools-for-model', provider: 'qwen', why: 'config' });
    expect(body.model?.reason).toContain('不支持工具调用');
    expect(body.bridge).toBeNull();
  });

  it('a CLI that cannot run is the CLI field, with what to do', async () => {
    const body = await status((c) => {
      c.ccexec.cli = [path.join(c.ccexec.cwd, 'no-such-chainlesschain')];
    }, 'en');
    expect(body.cli).toMatchObject({ status: 'cli-not-found' });
    expect(body.cli?.reason).toContain('Install chainlesschain or set its path in [ccexec] cli');
  });

  it('no provider configured: the model says so, the CLI keeps its own state', async () => {
    const body = await status((c) => {
      c.ccexec.default_provider = '';
      c.ccexec.providers = {};
    });
    expect(body.cli).toMatchObject({ status: 'available' });
    expect(body.model).toMatchObject({ status: 'no-provider' });
  });
});
