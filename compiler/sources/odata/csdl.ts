/**
 * The CSDL XML element tree as a typed model (OData CSDL XML v4.01 §3 "Entity Model Wrapper" to §13
 * "Entity Container"): schemas with their namespace and alias, structured, enumeration and type
 * definition types, functions, actions and the entity container. Only what compilation reads is kept;
 * qualified names are resolved against namespaces and aliases here, once.
 */
import { SourceError } from "../../errors/errors.js";
import type { XmlElement } from "./xml.js";

export interface CsdlProperty {
  readonly name: string;
  /** Qualified type name, `Collection(…)` unwrapped into `collection`. */
  readonly type: string;
  readonly collection: boolean;
  readonly nullable: boolean;
  readonly maxLength?: number;
  readonly description?: string;
}

export interface CsdlNavigation {
  readonly name: string;
  readonly type: string;
  readonly collection: boolean;
}

export interface CsdlStructuredType {
  readonly kind: "entity" | "complex";
  readonly name: string;
  readonly qualified: string;
  readonly baseType?: string;
  readonly abstract: boolean;
  readonly openType: boolean;
  readonly key: readonly string[];
  readonly properties: readonly CsdlProperty[];
  readonly navigation: readonly CsdlNavigation[];
  readonly hasStream: boolean;
  readonly description?: string;
  readonly pointer: string;
}

export interface CsdlEnumType {
  readonly qualified: string;
  readonly members: readonly string[];
  readonly flags: boolean;
}

export interface CsdlTypeDefinition {
  readonly qualified: string;
  readonly underlying: string;
}

export interface CsdlOperation {
  readonly kind: "function" | "action";
  readonly name: string;
  readonly qualified: string;
  readonly bound: boolean;
  readonly parameters: readonly CsdlProperty[];
  readonly returnType?: CsdlProperty;
  readonly composable: boolean;
  readonly pointer: string;
}

export interface CsdlEntitySet {
  readonly name: string;
  readonly entityType: string;
  readonly navigationBindings: readonly { readonly path: string; readonly target: string }[];
  readonly description?: string;
}

export interface CsdlSingleton {
  readonly name: string;
  readonly type: string;
}

export interface CsdlImport {
  readonly kind: "function" | "action";
  readonly name: string;
  readonly operation: string;
  readonly entitySet?: string;
}

export interface CsdlModel {
  readonly version: string;
  readonly structured: ReadonlyMap<string, CsdlStructuredType>;
  readonly enums: ReadonlyMap<string, CsdlEnumType>;
  readonly typeDefinitions: ReadonlyMap<string, CsdlTypeDefinition>;
  /** Overloads by qualified name, in document order. */
  readonly operations: ReadonlyMap<string, readonly CsdlOperation[]>;
  readonly container?: {
    readonly name: string;
    readonly entitySets: readonly CsdlEntitySet[];
    readonly singletons: readonly CsdlSingleton[];
    readonly imports: readonly CsdlImport[];
  };
  /** Elements the compiler does not read, by pointer (reported as partial). */
  readonly ignored: readonly { readonly pointer: string; readonly element: string }[];
}

const children = (element: XmlElement, name: string) =>
  element.children.filter((child) => child.name === name);

/** The Core.Description annotation of an element, when it is a plain string. */
function descriptionOf(element: XmlElement): string | undefined {
  for (const annotation of children(element, "Annotation")) {
    const term = annotation.attributes.Term ?? "";
    if (/(^|\.)Core\.Description$|^Org\.OData\.Core\.V1\.Description$/.test(term)) {
      const text = annotation.attributes.String;
      if (text !== undefined && text !== "") return text;
    }
  }
  return undefined;
}

/** Builds the model; `source` names the source in errors. */
export function readCsdl(source: string, root: XmlElement): CsdlModel {
  if (root.name !== "Edmx") {
    throw new SourceError(
      source,
      "SOURCE_INVALID",
      `the document's root element is <${root.name}>, not <edmx:Edmx>; give a CSDL XML document (the service's $metadata).`,
    );
  }
  const version = root.attributes.Version ?? "";
  if (!/^4\.0(1)?$/.test(version)) {
    throw new SourceError(
      source,
      "SOURCE_INVALID",
      `the CSDL document is version ${JSON.stringify(version)}; schemarouter reads OData v4 CSDL (Version="4.0" or "4.01").`,
    );
  }
  const dataServices = children(root, "DataServices")[0];
  if (dataServices === undefined)
    throw new SourceError(source, "SOURCE_INVALID", "the CSDL document has no <edmx:DataServices>.");
  const schemas = children(dataServices, "Schema");
  const aliases = new Map<string, string>();
  for (const schema of schemas) {
    const namespace = schema.attributes.Namespace;
    if (namespace === undefined || namespace === "")
      throw new SourceError(source, "SOURCE_INVALID", "a <Schema> has no Namespace.");
    if (schema.attributes.Alias !== undefined) aliases.set(schema.attributes.Alias, namespace);
  }
  for (const reference of children(root, "Reference"))
    for (const include of children(reference, "Include"))
      if (include.attributes.Alias !== undefined && include.attributes.Namespace !== undefined)
        aliases.set(include.attributes.Alias, include.attributes.Namespace);
  const qualify = (name: string): string => {
    const dot = name.lastIndexOf(".");
    if (dot < 0) return name;
    const prefix = name.slice(0, dot);
    return `${aliases.get(prefix) ?? prefix}.${name.slice(dot + 1)}`;
  };
  const typeOf = (raw: string | undefined): { type: string; collection: boolean } => {
    const value = raw ?? "Edm.Untyped";
    const match = /^Collection\((.+)\)$/.exec(value);
    return match === null
      ? { type: qualify(value), collection: false }
      : { type: qualify(match[1]!), collection: true };
  };
  const propertyOf = (element: XmlElement, nullableDefault: boolean): CsdlProperty => {
    const { type, collection } = typeOf(element.attributes.Type);
    const maxLength = Number(element.attributes.MaxLength);
    const description = descriptionOf(element);
    return {
      name: element.attributes.Name ?? "",
      type,
      collection,
      nullable:
        element.attributes.Nullable === undefined ? nullableDefault : element.attributes.Nullable !== "false",
      ...(Number.isSafeInteger(maxLength) && maxLength > 0 ? { maxLength } : {}),
      ...(description !== undefined ? { description } : {}),
    };
  };
  const structured = new Map<string, CsdlStructuredType>();
  const enums = new Map<string, CsdlEnumType>();
  const typeDefinitions = new Map<string, CsdlTypeDefinition>();
  const operations = new Map<string, CsdlOperation[]>();
  const ignored: { pointer: string; element: string }[] = [];
  let container: CsdlModel["container"];
  for (const [schemaIndex, schema] of schemas.entries()) {
    const namespace = schema.attributes.Namespace!;
    for (const [index, element] of schema.children.entries()) {
      const pointer = `/Schema/${schemaIndex}/${element.name}/${element.attributes.Name ?? index}`;
      const name = element.attributes.Name ?? "";
      const qualified = `${namespace}.${name}`;
      switch (element.name) {
        case "EntityType":
        case "ComplexType": {
          const description = descriptionOf(element);
          structured.set(qualified, {
            kind: element.name === "EntityType" ? "entity" : "complex",
            name,
            qualified,
            ...(element.attributes.BaseType !== undefined
              ? { baseType: qualify(element.attributes.BaseType) }
              : {}),
            abstract: element.attributes.Abstract === "true",
            openType: element.attributes.OpenType === "true",
            key: children(element, "Key").flatMap((key) =>
              children(key, "PropertyRef").map((ref) => ref.attributes.Name ?? ""),
            ),
            properties: children(element, "Property").map((property) => propertyOf(property, true)),
            navigation: children(element, "NavigationProperty").map((navigation) => ({
              name: navigation.attributes.Name ?? "",
              ...typeOf(navigation.attributes.Type),
            })),
            hasStream: element.attributes.HasStream === "true",
            ...(description !== undefined ? { description } : {}),
            pointer,
          });
          break;
        }
        case "EnumType":
          enums.set(qualified, {
            qualified,
            members: children(element, "Member").map((member) => member.attributes.Name ?? ""),
            flags: element.attributes.IsFlags === "true",
          });
          break;
        case "TypeDefinition":
          typeDefinitions.set(qualified, {
            qualified,
            underlying: qualify(element.attributes.UnderlyingType ?? ""),
          });
          break;
        case "Function":
        case "Action": {
          const returns = children(element, "ReturnType")[0];
          const list = operations.get(qualified) ?? [];
          list.push({
            kind: element.name === "Function" ? "function" : "action",
            name,
            qualified,
            bound: element.attributes.IsBound === "true",
            parameters: children(element, "Parameter").map((parameter) => propertyOf(parameter, true)),
            ...(returns !== undefined ? { returnType: propertyOf(returns, true) } : {}),
            composable: element.attributes.IsComposable === "true",
            pointer,
          });
          operations.set(qualified, list);
          break;
        }
        case "EntityContainer":
          container = {
            name,
            entitySets: children(element, "EntitySet").map((set) => {
              const description = descriptionOf(set);
              return {
                name: set.attributes.Name ?? "",
                entityType: qualify(set.attributes.EntityType ?? ""),
                navigationBindings: children(set, "NavigationPropertyBinding").map((binding) => ({
                  path: binding.attributes.Path ?? "",
                  target: binding.attributes.Target ?? "",
                })),
                ...(description !== undefined ? { description } : {}),
              };
            }),
            singletons: children(element, "Singleton").map((singleton) => ({
              name: singleton.attributes.Name ?? "",
              type: qualify(singleton.attributes.Type ?? ""),
            })),
            imports: element.children
              .filter((child) => child.name === "FunctionImport" || child.name === "ActionImport")
              .map((child) => ({
                kind: child.name === "FunctionImport" ? ("function" as const) : ("action" as const),
                name: child.attributes.Name ?? "",
                operation: qualify(child.attributes.Function ?? child.attributes.Action ?? ""),
                ...(child.attributes.EntitySet !== undefined
                  ? { entitySet: child.attributes.EntitySet }
                  : {}),
              })),
          };
          break;
        case "Annotation":
        case "Annotations":
          break;
        default:
          ignored.push({ pointer, element: element.name });
      }
    }
  }
  return {
    version,
    structured,
    enums,
    typeDefinitions,
    operations,
    ...(container ? { container } : {}),
    ignored,
  };
}
