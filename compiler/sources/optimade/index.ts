/**
 * The OPTIMADE SourceAdapter (OPTIMADE v1.2 "Base Info Endpoint", "Entry Listing Info Endpoints",
 * "Property Definitions"): one ToolSpec per provider, a listing and a single-entry endpoint per
 * entry type served, typed fields with units from the property definitions in either format, and a
 * trusted `response_fields` server projection. The document digest covers the info documents.
 */

import type { CompatibilityIssue, EndpointSpec, JsonSchema, ToolSpec } from "schemarouter/internal";
import { digestJson, encodePointerToken, sanitizeLocation } from "schemarouter/internal";
import type { OptimadeSourceConfig } from "../../config/config.js";
import { SourceError } from "../../errors/errors.js";
import { sortIssues } from "../compatibility.js";
import { MAX_DOCUMENT_DEPTH, tooDeepAt } from "../depth.js";
import type { SourceAdapter, SourceContext, SourceResult } from "../types.js";
import { discoverProvider, fetchInfo, type InfoDocument, isRecord, probePaginations } from "./discovery.js";
import { buildEntryEndpoints, type EntryTypeContract, entryDefName, entrySchema } from "./endpoints.js";
import { convertProperty } from "./properties.js";

/** Entry type names: identifiers ("Definition of Terms"), standard or provider-prefixed. */
const ENTRY_TYPE = /^[a-z_][a-z0-9_]*$/;

export const optimadeAdapter: SourceAdapter<OptimadeSourceConfig> = {
  kind: "optimade",
  async resolve(name: string, config: OptimadeSourceConfig, context: SourceContext): Promise<SourceResult> {
    const issues: CompatibilityIssue[] = [];
    const report = (issue: CompatibilityIssue) => issues.push(issue);
    const discovery = await discoverProvider(name, config.location, context);
    const { base, info } = discovery;
    const attributes = (info.body.data as Record<string, unknown>).attributes as Record<string, unknown>;
    const meta = isRecord(info.body.meta) ? info.body.meta : {};
    const provider = isRecord(meta.provider) ? meta.provider : {};
    reportBaseInfo(attributes, report);
    const license = licenseOf(attributes);
    const documents: InfoDocument[] = [info];
    const endpoints: EndpointSpec[] = [];
    const defs: Record<string, JsonSchema> = {};
    const served: string[] = [];
    for (const entryType of [...new Set(discovery.entryTypes)].sort()) {
      const pointer = `/info/${encodePointerToken(entryType)}`;
      if (!ENTRY_TYPE.test(entryType)) {
        report({
          pointer: "/info/data/attributes/entry_types_by_format/json",
          construct: "entry-type-name",
          level: "unsupported",
          message: `entry type ${JSON.stringify(entryType)} is not an identifier; it is not compiled.`,
          leftOut: pointer,
        });
        continue;
      }
      const document = await fetchInfo(name, base, `/info/${entryType}`, context);
      const deep = tooDeepAt(document);
      if (deep !== undefined) {
        throw new SourceError(
          name,
          "SOURCE_INVALID",
          `/info/${entryType} nests its property definitions deeper than ${MAX_DOCUMENT_DEPTH} levels (at ${deep}); schemarouter refuses such documents.`,
          { entryType, pointer: deep, limit: MAX_DOCUMENT_DEPTH },
        );
      }
      documents.push(document);
      const entry = entryContract(entryType, document, pointer, license, report);
      if (entry === undefined) continue;
      const paginations = await probePaginations(name, base, entryType, context);
      const contract = { ...entry, paginations };
      defs[entryDefName(entryType)] = entrySchema(contract);
      endpoints.push(...buildEntryEndpoints(contract, report));
      served.push(entryType);
    }
    const providerName = typeof provider.name === "string" && provider.name !== "" ? provider.name : name;
    const tool: ToolSpec = {
      name,
      namespace: name,
      description: `OPTIMADE provider "${providerName}"${
        typeof provider.description === "string" && provider.description !== ""
          ? `: ${provider.description}`
          : "."
      } Entry types: ${served.join(", ") || "(none)"}.`,
      provider: providerName,
      accessMode: "optimade",
      remote: true,
      execution: { transport: "optimade", baseUrl: base.href },
      endpoints,
      metadata: {
        apiVersion: typeof attributes.api_version === "string" ? attributes.api_version : null,
        providerPrefix: typeof provider.prefix === "string" ? provider.prefix : null,
        entryTypes: served,
        license: license ?? null,
      },
    };
    const digests: Record<string, string> = {};
    for (const document of documents) digests[document.path] = document.digest;
    return {
      tools: [tool],
      defs,
      compatibility: sortIssues(issues),
      documentDigest: digestJson(digests),
      location: sanitizeLocation(config.location),
    };
  },
};

/** The entry type's properties as field contracts, or undefined when it cannot be served as JSON. */
function entryContract(
  entryType: string,
  document: InfoDocument,
  pointer: string,
  license: string | undefined,
  report: (issue: CompatibilityIssue) => void,
): Omit<EntryTypeContract, "paginations"> | undefined {
  const data = isRecord(document.body.data) ? document.body.data : {};
  const properties = isRecord(data.properties) ? data.properties : undefined;
  if (properties === undefined) {
    report({
      pointer: `${pointer}/data/properties`,
      construct: "entry-info",
      level: "unsupported",
      message: `/info/${entryType} declares no properties; the entry type is not compiled.`,
      leftOut: pointer,
    });
    return undefined;
  }
  const formats = Array.isArray(data.formats)
    ? data.formats.filter((format): format is string => typeof format === "string")
    : ["json"];
  if (!formats.includes("json")) {
    report({
      pointer: `${pointer}/data/formats`,
      construct: "response-format",
      level: "unsupported",
      message: `${entryType} is not served as JSON; the entry type is not compiled.`,
      leftOut: pointer,
    });
    return undefined;
  }
  for (const format of formats.filter((format) => format !== "json"))
    report({
      pointer: `${pointer}/data/formats`,
      construct: "response-format",
      level: "partial",
      message: `${entryType} is also served as ${JSON.stringify(format)}; only JSON is compiled.`,
    });
  if (data.id !== undefined && data.id !== entryType)
    report({
      pointer: `${pointer}/data/id`,
      construct: "entry-info",
      level: "partial",
      message: `/info/${entryType} names itself ${JSON.stringify(data.id)}.`,
    });
  const outputFields = isRecord(data.output_fields_by_format) ? data.output_fields_by_format.json : undefined;
  if (Array.isArray(outputFields)) {
    for (const property of Object.keys(properties)
      .filter((key) => !outputFields.includes(key))
      .sort())
      report({
        pointer: `${pointer}/data/properties/${encodePointerToken(property)}`,
        construct: "output-field",
        level: "partial",
        message: `${entryType}.${property} is not listed as a JSON output field; the provider may refuse to return it.`,
      });
  }
  const contracts = Object.keys(properties)
    .filter((property) => {
      if (
        /^[a-z_][a-z0-9_]*$/.test(property) &&
        !["__proto__", "prototype", "constructor"].includes(property)
      )
        return true;
      report({
        pointer: `${pointer}/data/properties/${encodePointerToken(property)}`,
        construct: "property-name",
        level: "unsupported",
        message: `property ${JSON.stringify(property)} is not an identifier; it is not compiled.`,
      });
      return false;
    })
    .sort()
    .map((property) =>
      convertProperty(
        property,
        properties[property],
        `${pointer}/data/properties/${encodePointerToken(property)}`,
        report,
      ),
    );
  return {
    entryType,
    description:
      typeof data.description === "string" && data.description !== ""
        ? data.description
        : `${entryType} entries.`,
    properties: contracts,
    ...(license !== undefined ? { license } : {}),
    pointer,
  };
}

function reportBaseInfo(
  attributes: Record<string, unknown>,
  report: (issue: CompatibilityIssue) => void,
): void {
  if (attributes.is_index === true) {
    report({
      pointer: "/info/data/attributes/is_index",
      construct: "index-meta-database",
      level: "partial",
      message:
        "the base URL is an index meta-database: it lists other databases (links) but serves no entries; compile the child databases' base URLs instead.",
    });
  }
}

/** The data license: SPDX identifiers from `available_licenses`, else the `license` link. */
function licenseOf(attributes: Record<string, unknown>): string | undefined {
  const available = Array.isArray(attributes.available_licenses)
    ? attributes.available_licenses.filter((item): item is string => typeof item === "string" && item !== "")
    : [];
  if (available.length > 0) return [...available].sort().join(" OR ");
  const link = attributes.license;
  if (typeof link === "string" && link !== "") return sanitizeLocation(link);
  if (isRecord(link) && typeof link.href === "string" && link.href !== "") return sanitizeLocation(link.href);
  return undefined;
}
