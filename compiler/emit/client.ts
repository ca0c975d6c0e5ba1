/**
 * The client module of one source, stamped as text from the template pieces (no TypeScript parser
 * or formatter in the loop): the pins, one field-ID alias and one typed method per endpoint, and the
 * factory. Field-path interfaces go to the source's types module (a declaration file), so the
 * checked `.ts` module stays small.
 */

import { pascalCase } from "./names.js";
import type { PlannedMethod } from "./plan.js";
import type { ClientTemplate } from "./template.js";

export function clientModuleBody(
  template: ClientTemplate,
  sourceName: string,
  methods: readonly PlannedMethod[],
  runtimeImport: string,
  typesModule: string,
): string {
  const clientName = `${pascalCase(sourceName)}Client`;
  const out: string[] = [
    template.runtimeImport.replace("{{runtime}}", JSON.stringify(runtimeImport)),
    `import type * as T from ${JSON.stringify(typesModule)};`,
    "",
    template.pinsOpen,
    ...methods.map(pinLine),
    template.pinsClose,
    "",
    ...methods.map((m) => fill(template.fieldAlias, names(m))),
    "",
    `/** Typed client of source ${JSON.stringify(sourceName)}. */`,
    template.clientOpen.replace("__Client", clientName),
  ];
  for (const m of methods) {
    out.push(...docLines(docText(m), "  "));
    out.push(`  ${methodSignature(template.method, m)}`);
  }
  out.push(
    template.clientClose,
    "",
    fill(template.factory, { __createClient: `create${clientName}`, __Client: clientName }),
    "",
  );
  return out.join("\n");
}

/** The field-path interfaces of every method, for the types module. */
export function fieldInterfaces(template: ClientTemplate, methods: readonly PlannedMethod[]): string {
  const out: string[] = [];
  for (const m of methods) {
    out.push(fill(template.fieldsOpen, { __Fields: `${m.typeBase}Fields` }));
    for (const field of m.endpoint.fields) {
      const line = fill(template.fieldProperty, {
        '["__field"]': tuple(field.path),
        __field: JSON.stringify(field.id),
      });
      // A field returned under another key (resultPath) is typed where the runtime puts it
      // (docs/runtime/field-projection.md): its entry names both paths.
      const from = `readonly ${tuple(field.path)}`;
      // The value type follows the key; the template check (template.ts) guarantees it is there.
      const at = line.lastIndexOf(from);
      out.push(
        field.resultPath === undefined || tuple(field.resultPath) === tuple(field.path)
          ? line
          : `${line.slice(0, at)}{ readonly from: ${from}; readonly to: readonly ${tuple(field.resultPath)} }${line.slice(at + from.length)}`,
      );
    }
    out.push(template.fieldsClose);
  }
  return `${out.join("\n")}\n`;
}

function tuple(path: readonly string[]): string {
  return `[${path.map((segment) => JSON.stringify(segment)).join(", ")}]`;
}

function pinLine(m: PlannedMethod): string {
  return `  ${JSON.stringify(m.method)}: { tool: ${JSON.stringify(m.tool)}, endpoint: ${JSON.stringify(m.endpoint.name)}, endpointFingerprint: ${JSON.stringify(m.endpointFingerprint)}, toolFingerprint: ${JSON.stringify(m.toolFingerprint)} },`;
}

function methodSignature(template: string, m: PlannedMethod): string {
  // The arguments are optional when the endpoint has no required parameter.
  const optional = !m.endpoint.parameters.some((parameter) => parameter.required);
  return fill(optional ? template.replace(/(\w+): __Input\b/, "$1?: __Input") : template, {
    ...names(m),
    __method: m.method,
    __Input: `T.${m.typeBase}Input`,
    __Output: `T.${m.typeBase}Output`,
  });
}

function names(m: PlannedMethod): Record<string, string> {
  return { __Fields: `T.${m.typeBase}Fields`, __Field: `${m.typeBase}Field` };
}

/** Every template placeholder, longest alternatives first. */
const PLACEHOLDER =
  /__createClient|__Client|__Fields|__Field|__Input|__Output|__method|\["__field"\]|__field/g;

/** Replaces the given placeholders in one pass, so replacement text is never re-scanned. */
function fill(text: string, values: Readonly<Record<string, string>>): string {
  return text.replace(PLACEHOLDER, (match) => values[match] ?? match);
}

function docText(m: PlannedMethod): string {
  const summary = m.endpoint.description.split("\n")[0]!.slice(0, 200).trimEnd();
  const execution = m.endpoint.execution;
  const wire = execution.kind === "http" ? ` — ${execution.method.toUpperCase()} ${execution.path}` : "";
  return `${summary || m.endpoint.name}\n\n\`${m.tool}.${m.endpoint.name}\` (${m.endpoint.effect})${wire}`;
}

/** A JSDoc block; `*\/` inside the text is escaped so the comment cannot end early. */
export function docLines(text: string, indent: string): string[] {
  const body = text
    .replace(/\*\//g, "*\\/")
    .split("\n")
    .map((line) => line.trimEnd());
  return [
    `${indent}/**`,
    ...body.map((line) => (line === "" ? `${indent} *` : `${indent} * ${line}`)),
    `${indent} */`,
  ];
}
