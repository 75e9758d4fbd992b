import { SerializerSelector, type SerializerFactory } from '@fastify/fast-json-stringify-compiler';

type Serialize = (data: unknown) => string;

/** Fastify's own serializer factory (fast-json-stringify), which this one wraps. */
const compileWithFastJsonStringify = SerializerSelector();

/**
 * Compiled serializers by route schema, then by the shared schemas they may `$ref`. The schemas
 * are the contracts' module constants, so every app a process builds (tests build hundreds, one
 * per file or per case) finds the serializers the first one compiled.
 */
const compiledBySchema = new WeakMap<object, Map<string, Serialize>>();

/**
 * Fastify compiles a serializer for every response schema of every route when the app becomes
 * ready: about 6 s of CPU for the management API on this machine, 85% of building the app, in
 * every replica's start and in every test that builds an app. This factory hands Fastify a
 * serializer that compiles on its first use, with fast-json-stringify as Fastify would, and
 * remembers it for the process. A route answers byte for byte what it answered before; its first
 * response per status pays the compile (milliseconds to tens of them) instead of the start.
 */
export const lazySerializerFactory: SerializerFactory = (externalSchemas, options) => {
  const compileRoute = compileWithFastJsonStringify(externalSchemas, options);
  const externalIds = Object.keys((externalSchemas as Record<string, unknown> | undefined) ?? {}).sort().join('\n');
  return (route) => {
    let compiled: Serialize | undefined;
    return (data) => {
      compiled ??= memoized(route.schema, externalIds, () => compileRoute(route));
      return compiled(data);
    };
  };
};

function memoized(schema: unknown, externalIds: string, compile: () => Serialize): Serialize {
  // A schema that is not an object (none is, in practice) is compiled without memo.
  if (typeof schema !== 'object' || schema === null) return compile();
  let byExternals = compiledBySchema.get(schema);
  if (!byExternals) compiledBySchema.set(schema, (byExternals = new Map()));
  let serialize = byExternals.get(externalIds);
  if (!serialize) byExternals.set(externalIds, (serialize = compile()));
  return serialize;
}
