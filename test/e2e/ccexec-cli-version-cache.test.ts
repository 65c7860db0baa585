// The daemon's gateway checks the CLI's version once per CLI fingerprint (in memory, no file): a CLI
// upgraded or installed in place while the daemon runs is noticed at the next availability check,
// without `recheck`; an unchanged one is not started again.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createGateway } from '../../src/ccexec/create-gateway.js';
import { copyFakeCli } from '../fakes/fake-chainlesschain/fake-cli.js';
import {
  harnessLogger,
  startGatewayHarness,
  type GatewayHarness,
} from '../fakes/fake-chainlesschain/gateway-harness.js';

let h: GatewayHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function setup() {
  h = await startGatewayHarness();
  const dir = path.join(h.fake.home, 'install');
  const script = path.join(dir, 'chainlesschain.mjs');
  h.config.ccexec.cli = [process.execPath, script];
  const versionLog = path.join(h.fake.home, 'versions.jsonl');
  Object.assign(h.env, { FAKE_CC_VERSION_LOG: versionLog });
  const gw = createGateway({ config: h.config, paths: h.paths, env: h.env, lang: 'en', logger: harnessLogger });
  const probes = (): number =>
    fs.existsSync(versionLog) ? fs.readFileSync(versionLog, 'utf8').split('\n').length - 1 : 0;
  return { gw, dir, script, probes, paths: h.paths };
}

describe('the gateway checks the CLI once per fingerprint', () => {
  it('notices an in-place upgrade and a later install; recheck still probes', async () => {
    const { gw, dir, script, probes, paths } = await setup();
    expect((await gw.availability()).status).toBe('cli-not-found');
    copyFakeCli(dir);
    expect(await gw.availability()).toMatchObject({ status: 'available', version: '0.165.7' });
    expect(await gw.availability()).toMatchObject({ status: 'available', version: '0.165.7' });
    expect(probes()).toBe(1);

    // An upgrade that rewrites the script: same path, new content.
    fs.writeFileSync(script, fs.readFileSync(script, 'utf8').replace("|| '0.165.7'", "|| '0.166.0'"));
    expect(await gw.availability()).toMatchObject({ status: 'available', version: '0.166.0' });
    expect(probes()).toBe(2);

    await gw.availability({ recheck: true });
    expect(probes()).toBe(3);
    // The daemon keeps it in memory only.
    expect(fs.existsSync(paths.ccexecVersionFile)).toBe(false);
  });
});
