/**
 * Argument accounting for a planned call: caller arguments override proposed ones, arguments the
 * endpoint does not declare are dropped and reported, and missing required arguments are listed,
 * never invented.
 */
import type { EndpointSpec, ParameterLocation } from "../model/specs.js";

export interface ArgumentPlan {
  readonly arguments: Readonly<Record<string, unknown>>;
  readonly sources: Readonly<Record<string, "caller" | "proposal">>;
  readonly ignored: readonly string[];
  readonly missing: readonly { readonly name: string; readonly location: ParameterLocation }[];
}

export function planArguments(
  endpoint: EndpointSpec,
  caller: Readonly<Record<string, unknown>> | undefined,
  proposed: Readonly<Record<string, unknown>> | undefined,
): ArgumentPlan {
  const declared = new Map(endpoint.parameters.map((parameter) => [parameter.name, parameter]));
  const args: Record<string, unknown> = {};
  const sources: Record<string, "caller" | "proposal"> = {};
  const ignored: string[] = [];
  const take = (from: Readonly<Record<string, unknown>> | undefined, source: "caller" | "proposal"): void => {
    for (const [name, value] of Object.entries(from ?? {})) {
      if (value === undefined) continue;
      if (!declared.has(name)) {
        if (!ignored.includes(name)) ignored.push(name);
        continue;
      }
      Object.defineProperty(args, name, { value, enumerable: true, writable: true, configurable: true });
      sources[name] = source;
    }
  };
  take(proposed, "proposal");
  take(caller, "caller");
  const missing = endpoint.parameters
    .filter((parameter) => parameter.required && !Object.hasOwn(args, parameter.name))
    .map((parameter) => ({ name: parameter.name, location: parameter.location }));
  return { arguments: args, sources, ignored, missing };
}
