import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { copyFakeCli, createFakeCliHome, type FakeCliHome } from '../../test/fakes/fake-chainlesschain/fake-cli.js';
import { createCliVersionCache, type CliVersionDoc, type CliVersionStore } from './cli-version-cache.js';
import { createExecService } from './exec-service.js';

const homes: FakeCliHome[] = [];
afterEach(() => {
  for (const h of homes.splice(0)) h.cleanup();
});

/** A store that lives as long as the test: what a file would hold between two processes. */
function memoryStore(initial?: unknown): CliVersionStore & { doc: unknown; saves: number } {
  const store = {
    doc: initial,
    saves: 0,
    load: () => store.doc,
    save: async (doc: CliVersionDoc) => {
      store.doc = JSON.parse(JSON.stringify(doc)) as unknown;
      store.saves++;
    },
  };
  return store;
}

/** A private copy of the fake CLI in a temp HOME, and a counter of its `--version` runs. */
function setup(env: NodeJS.ProcessEnv = {}) {
  const fake = createFakeCliHome();
  homes.push(fake);
  const { script, bin } = copyFakeCli(path.join(fake.home, 'install'));
  const versionLog = path.join(fake.home, 'versions.jsonl');
  const parentEnv = { ...fake.env, FAKE_CC_VERSION_LOG: versionLog, ...env };
  const probes = (): number =>
    fs.existsSync(versionLog) ? fs.readFileSync(versionLog, 'utf8').split('\n').length - 1 : 0;
  /** One process's exec service over `store`: a fresh memory cache each time, as a new `ask` has. */
  const service = (store: CliVersionStore, cli: string[] = [process.execPath, script], extra: NodeJS.ProcessEnv = {}) =>
    createExecService({
      cli,
      cwd: fake.home,
      timeoutMs: 10_000,
      env: { ...parentEnv, ...extra },
      envAllow: ['FAKE_CC_VERSION_LOG', 'FAKE_CC_VERSION'],
      versionCache: createCliVersionCache({ store }),
    });
  return { fake, script, bin, probes, service };
}

describe('CLI version cache', () => {
  it('probes once per fingerprint, across processes sharing the store', async () => {
    const { service, probes } = setup();
    const store = memoryStore();
    const first = service(store);
    expect(await first.checkVersion()).toEqual({ status: 'available', version: '0.165.7' });
    expect(await first.checkVersion()).toEqual({ status: 'available', version: '0.165.7' });
    expect(probes()).toBe(1);
    expect(await service(store).checkVersion()).toEqual({ status: 'available', version: '0.165.7' });
    expect(probes()).toBe(1);
    expect(store.saves).toBe(1);
  });

  it('probes again when the script changes in place: mtime, or size, or its package.json', async () => {
    const { service, probes, script, fake } = setup();
    const store = memoryStore();
    await service(store).checkVersion();
    const later = new Date(Date.now() + 60_000);
    fs.utimesSync(script, later, later);
    await service(store).checkVersion();
    expect(probes()).toBe(2);
    fs.appendFileSync(script, '\n// 0.165.8\n');
    await service(store).checkVersion();
    expect(probes()).toBe(3);
    await service(store).checkVersion();
    expect(probes()).toBe(3);
    // A package upgrade that leaves the script alone but rewrites the version in package.json.
    fs.writeFileSync(path.join(fake.home, 'install', 'package.json'), '{"version":"0.165.7"}');
    await service(store).checkVersion();
    expect(probes()).toBe(4);
    fs.writeFileSync(path.join(fake.home, 'install', 'package.json'), '{"version":"0.165.8"}');
    await service(store).checkVersion();
    expect(probes()).toBe(5);
  });

  it('keys on the resolved program: a different path, or a bare name found on PATH', async () => {
    const { service, probes, fake, bin } = setup();
    const store = memoryStore();
    await service(store).checkVersion();
    const other = copyFakeCli(path.join(fake.home, 'other'));
    await service(store, [process.execPath, other.script]).checkVersion();
    expect(probes()).toBe(2);
    const onPath = { PATH: `${path.dirname(bin)}${path.delimiter}${fake.env.PATH ?? ''}` };
    const byName = service(store, ['chainlesschain'], onPath);
    expect(byName.fingerprint()?.files.map((f) => f.path)).toContain(fs.realpathSync(bin));
    await byName.checkVersion();
    await service(store, ['chainlesschain'], onPath).checkVersion();
    expect(probes()).toBe(3);
    // The earlier entries are still there: switching back costs nothing.
    await service(store).checkVersion();
    await service(store, [process.execPath, other.script]).checkVersion();
    expect(probes()).toBe(3);
  });

  it('recheck always probes, and refreshes the entry', async () => {
    const { service, probes } = setup();
    const store = memoryStore();
    const svc = service(store);
    await svc.checkVersion();
    await svc.checkVersion(undefined, { recheck: true });
    expect(probes()).toBe(2);
  });

  it('keeps a too-old version (classified again on a hit), never a missing or broken CLI', async () => {
    const { service, probes, fake } = setup({ FAKE_CC_VERSION: '0.162.3' });
    const store = memoryStore();
    expect(await service(store).checkVersion()).toMatchObject({ status: 'cli-too-old', version: '0.162.3' });
    expect(await service(store).checkVersion('0.160.0')).toEqual({ status: 'available', version: '0.162.3' });
    expect(probes()).toBe(1);

    const broken = path.join(fake.home, 'broken.mjs');
    fs.writeFileSync(broken, 'process.exit(3);\n');
    const brokenStore = memoryStore();
    expect(await service(brokenStore, [process.execPath, broken]).checkVersion()).toMatchObject({
      status: 'cli-broken',
    });
    expect(brokenStore.saves).toBe(0);
    const missing = memoryStore();
    expect(await service(missing, ['chainlesschain-not-installed']).checkVersion()).toEqual({
      status: 'cli-not-found',
    });
    expect(missing.saves).toBe(0);
  });

  it('ignores a corrupt or foreign document and replaces it on the next save', async () => {
    const { service, probes } = setup();
    for (const junk of ['{"spoilt', { format: 'something-else', entries: [] }, { entries: [{ version: 'x' }] }]) {
      const store = memoryStore(junk);
      expect(await service(store).checkVersion()).toEqual({ status: 'available', version: '0.165.7' });
      expect(store.doc).toMatchObject({ format: 'cc-linker/cli-version-cache/1', entries: [{ version: '0.165.7' }] });
    }
    expect(probes()).toBe(3);
  });

  it('never serves a forged entry for another fingerprint', async () => {
    const { service, probes, script } = setup({ FAKE_CC_VERSION: '0.100.0' });
    const store = memoryStore();
    const svc = service(store);
    const fp = svc.fingerprint();
    expect(fp).not.toBeNull();
    const stale = fp && { ...fp, files: fp.files.map((f) => ({ ...f, mtimeMs: f.mtimeMs - 1000 })) };
    store.doc = { format: 'cc-linker/cli-version-cache/1', entries: [{ ...stale, version: '0.165.7', probedAt: 'x' }] };
    expect(await svc.checkVersion()).toMatchObject({ status: 'cli-too-old', version: '0.100.0' });
    expect(probes()).toBe(1);
    expect(fs.existsSync(script)).toBe(true);
  });
});
