/**
 * The method plan of one source's bindings: one uniquely named method (and type base name) per
 * endpoint, with the endpoint and tool fingerprints it is pinned to.
 */
import type { EndpointSpec } from "schemarouter/internal";
import type { CompiledSource } from "./lockfile.js";
import { camelCase, NameAllocator, pascalCase } from "./names.js";

export interface PlannedMethod {
  readonly method: string;
  readonly typeBase: string;
  readonly tool: string;
  readonly toolFingerprint: string;
  readonly endpoint: EndpointSpec;
  readonly endpointFingerprint: string;
}

export function planMethods(source: Pick<CompiledSource, "tools">): PlannedMethod[] {
  const allocator = new NameAllocator();
  const out: PlannedMethod[] = [];
  for (const registered of source.tools) {
    for (const endpoint of registered.tool.endpoints) {
      const method = allocator.take(camelCase(endpoint.name));
      out.push({
        method,
        typeBase: pascalCase(method),
        tool: registered.tool.name,
        toolFingerprint: registered.fingerprint,
        endpoint,
        endpointFingerprint: registered.endpointFingerprints.get(endpoint.name)!,
      });
    }
  }
  return out;
}
