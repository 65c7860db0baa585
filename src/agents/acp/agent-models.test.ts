import { describe, expect, it } from 'vitest';
import { modelsOf } from './agent-models.js';

describe('modelsOf', () => {
  it('reads the older `models` field', () => {
    expect(
      modelsOf({
        sessionId: 's',
        models: {
          availableModels: [{ modelId: 'a', name: 'A' }, { modelId: 'b' }, { name: 'no id' }, 'junk'],
          currentModelId: 'b',
        },
      }),
    ).toEqual({ available: [{ id: 'a', name: 'A' }, { id: 'b' }], current: 'b' });
  });

  it('reads a `model` config option, flat or grouped, without duplicates', () => {
    expect(
      modelsOf({
        configOptions: [
          { id: 'mode', category: 'mode', type: 'select', currentValue: 'x', options: [{ value: 'x', name: 'X' }] },
          {
            id: 'model',
            category: 'model',
            type: 'select',
            currentValue: 'gpt',
            options: [
              { group: 'g1', name: 'G1', options: [{ value: 'gpt', name: 'GPT' }] },
              { value: 'o3', name: 'O3' },
              { value: 'gpt', name: 'again' },
            ],
          },
        ],
      }),
    ).toEqual({
      available: [
        { id: 'gpt', name: 'GPT' },
        { id: 'o3', name: 'O3' },
      ],
      current: 'gpt',
    });
  });

  it('nothing from a response without models, or from junk', () => {
    expect(modelsOf({ sessionId: 's' })).toEqual({ available: [] });
    expect(modelsOf(null)).toEqual({ available: [] });
    expect(modelsOf({ models: 'x', configOptions: 'y' })).toEqual({ available: [] });
  });
});
