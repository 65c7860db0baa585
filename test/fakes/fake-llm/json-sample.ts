/**
 * A value that satisfies a simple JSON schema, for background calls that ask for JSON (Gemini's
 * routing call wants `{complexity_reasoning, complexity_score}`): objects get every property,
 * strings `"fake"`, numbers `1`, booleans `false`, arrays `[]`, enums their first value.
 */
export function jsonSample(schema: unknown): unknown {
  if (typeof schema !== 'object' || schema === null) return null;
  const s = schema as { type?: unknown; enum?: unknown; properties?: unknown; anyOf?: unknown };
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  if (Array.isArray(s.anyOf) && s.anyOf.length > 0) return jsonSample(s.anyOf[0]);
  const type = (Array.isArray(s.type) ? s.type[0] : s.type) as unknown;
  switch (typeof type === 'string' ? type.toLowerCase() : typeof s.properties === 'object' ? 'object' : '') {
    case 'object':
      return Object.fromEntries(
        Object.entries((s.properties ?? {}) as Record<string, unknown>).map(([k, v]) => [k, jsonSample(v)]),
      );
    case 'string':
      return 'fake';
    case 'number':
    case 'integer':
      return 1;
    case 'boolean':
      return false;
    case 'array':
      return [];
    default:
      return null;
  }
}
