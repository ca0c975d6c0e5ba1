/**
 * `application/x-www-form-urlencoded` request bodies (OpenAPI 3.1.0 §4.8.15 Encoding Object;
 * docs/runtime/transports.md, "Request bodies"): a scalar property is `name=value`; an array is repeated
 * `name=item` (style `form`, explode), or `name[0]=item` for a `deepObject` property; an object is
 * `name[key]=value`, nested as deep as the value (the bracket convention of Stripe and `qs`).
 * `null` is sent as an empty value. Keys and values are percent-encoded by URLSearchParams.
 */

export function encodeFormBody(
  fields: Readonly<Record<string, unknown>>,
  deepObject: ReadonlySet<string>,
): string {
  const out = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) {
    if (Array.isArray(value) && !deepObject.has(name)) {
      for (const item of value) append(out, name, item);
    } else append(out, name, value);
  }
  return out.toString();
}

function append(out: URLSearchParams, key: string, value: unknown): void {
  if (value === undefined) return;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) append(out, `${key}[${index}]`, item);
    return;
  }
  if (value !== null && typeof value === "object") {
    for (const [child, item] of Object.entries(value)) append(out, `${key}[${child}]`, item);
    return;
  }
  out.append(key, value === null ? "" : String(value));
}
