import type { AgentModel } from '../../engine/engine-types.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The models a `session/new` (or `session/load`) response offers, and the one in use. Two shapes
 * exist: the older unstable `models: { availableModels: [{ modelId, name }], currentModelId }`
 * (no longer in SDK 2.4's schema, still sent by agents), and a `configOptions` entry of category
 * `model` (a select: `options` flat or in groups, `currentValue`). Malformed parts are skipped.
 *
 * @example modelsOf({ models: { availableModels: [{ modelId: 'm1', name: 'M1' }], currentModelId: 'm1' } })
 *   // { available: [{ id: 'm1', name: 'M1' }], current: 'm1' }
 */
export function modelsOf(session: unknown): { available: AgentModel[]; current?: string } {
  if (!isObj(session)) return { available: [] };
  const seen = new Set<string>();
  const available: AgentModel[] = [];
  const add = (id: unknown, name: unknown): void => {
    if (typeof id !== 'string' || !id || seen.has(id)) return;
    seen.add(id);
    available.push({ id, ...(typeof name === 'string' && name ? { name } : {}) });
  };
  let current: string | undefined;
  const models = session.models;
  if (isObj(models) && Array.isArray(models.availableModels)) {
    for (const m of models.availableModels) if (isObj(m)) add(m.modelId, m.name);
    if (typeof models.currentModelId === 'string') current = models.currentModelId;
  }
  if (Array.isArray(session.configOptions)) {
    for (const option of session.configOptions) {
      if (!isObj(option) || option.category !== 'model' || !Array.isArray(option.options)) continue;
      for (const o of option.options) {
        if (!isObj(o)) continue;
        if (Array.isArray(o.options)) {
          for (const inner of o.options) if (isObj(inner)) add(inner.value, inner.name);
        } else {
          add(o.value, o.name);
        }
      }
      if (current === undefined && typeof option.currentValue === 'string') current = option.currentValue;
    }
  }
  return { available, ...(current ? { current } : {}) };
}
