/**
 * Generated hostile and malformed OpenAPI documents for test/hostile/openapi-documents.test.ts: ref bombs
 * and cycles, references to local secrets, credentials in every URL field, unsafe path templates,
 * protocol headers as parameters, prototype keys, deep nesting, huge enums, YAML alias bombs and custom
 * tags, truncated, binary and empty files, unknown versions.
 */

export interface HostileCase {
  readonly name: string;
  readonly body: string | Uint8Array;
  readonly extension?: "json" | "yaml";
  /** What must happen: a compile, a typed refusal (of a given code), a reported construct, or either. */
  readonly want:
    | "compiled"
    | "refused"
    | "either"
    | { readonly reported: string }
    | { readonly refused: string };
  /** The endpoints a compile must produce, when the case pins them. */
  readonly endpoints?: readonly string[];
}

type Json = Record<string, unknown>;

const ok = { "200": { description: "ok", content: { "application/json": { schema: { type: "object" } } } } };

function doc(paths: Json, extra: Json = {}): Json {
  return { openapi: "3.1.0", info: { title: "hostile", version: "1" }, paths, ...extra };
}

function withSchema(schema: unknown, components: Json = {}): Json {
  return doc(
    {
      "/x": {
        get: {
          operationId: "getX",
          responses: { "200": { description: "ok", content: { "application/json": { schema } } } },
        },
      },
    },
    { components },
  );
}

const json = (value: unknown): string => JSON.stringify(value);

/** A chain of definitions where each refers to the next twice ("billion laughs" over $ref). */
function refBomb(levels: number): Json {
  const schemas: Json = {};
  for (let level = 0; level < levels; level++) {
    const next = level + 1 < levels ? { $ref: `#/components/schemas/L${level + 1}` } : { type: "string" };
    schemas[`L${level}`] = { type: "object", properties: { a: next, b: next } };
  }
  return withSchema({ $ref: "#/components/schemas/L0" }, { schemas });
}

export function openapiCases(canary: string): HostileCase[] {
  const cases: HostileCase[] = [];
  const add = (hostile: HostileCase) => cases.push(hostile);

  // References: bombs, cycles, secrets, other documents.
  for (const levels of [10, 30, 60])
    add({
      name: `ref bomb of ${levels} levels`,
      body: json(refBomb(levels)),
      want: "compiled",
      endpoints: ["getX"],
    });
  add({
    name: "self-referencing schema",
    body: json(
      withSchema(
        { $ref: "#/components/schemas/A" },
        { schemas: { A: { type: "object", properties: { a: { $ref: "#/components/schemas/A" } } } } },
      ),
    ),
    want: "compiled",
  });
  add({
    name: "mutually recursive schemas",
    body: json(
      withSchema(
        { $ref: "#/components/schemas/A" },
        {
          schemas: {
            A: { items: { $ref: "#/components/schemas/B" } },
            B: { additionalProperties: { $ref: "#/components/schemas/A" } },
          },
        },
      ),
    ),
    want: "compiled",
  });
  add({
    name: "cycle through allOf",
    body: json(
      withSchema(
        { $ref: "#/components/schemas/A" },
        { schemas: { A: { allOf: [{ $ref: "#/components/schemas/A" }] } } },
      ),
    ),
    want: "either",
  });
  add({
    name: "ref to itself at the root",
    body: json(
      withSchema({ $ref: "#/components/schemas/A" }, { schemas: { A: { $ref: "#/components/schemas/A" } } }),
    ),
    want: "either",
  });
  add({
    name: "dangling ref",
    body: json(withSchema({ $ref: "#/components/schemas/Missing" })),
    want: { reported: "unresolved-ref" },
  });
  for (const ref of [
    "../secret.json",
    "../secret.json#/x",
    "file:///etc/passwd",
    "/etc/passwd#/root",
    `${"../".repeat(12)}etc/hostname`,
    "http://127.0.0.1:9/x.json",
    "https://evil.example/x.json#/a",
    "//evil.example/x",
  ]) {
    add({
      name: `external ref ${ref}`,
      body: json(withSchema({ $ref: ref })),
      want: { reported: "external-ref" },
      endpoints: [],
    });
  }
  add({
    name: "ref with a JSON pointer escaping components",
    body: json(withSchema({ $ref: "#/paths/~1x/get" })),
    want: "either",
  });
  add({
    name: "ref into a non-schema value",
    body: json(withSchema({ $ref: "#/info/title" })),
    want: "either",
  });

  // Credentials and secrets in every URL field.
  const urls = [
    `https://user:${canary}@api.example/v1?token=${canary}#${canary}`,
    `//user:${canary}@api.example/v1?k=${canary}`,
    `/v1?api_key=${canary}#${canary}`,
  ];
  for (const [index, url] of urls.entries()) {
    add({
      name: `secret in servers[] (form ${index + 1})`,
      body: json(doc({ "/x": { get: { operationId: "getX", responses: ok } } }, { servers: [{ url }] })),
      want: "compiled",
      endpoints: ["getX"],
    });
    add({
      name: `secret in path and operation servers (form ${index + 1})`,
      body: json(
        doc({
          "/x": { servers: [{ url }], get: { operationId: "getX", servers: [{ url }], responses: ok } },
        }),
      ),
      want: { reported: "operation-servers" },
    });
  }
  add({
    name: "secrets in info, externalDocs and security scheme URLs",
    body: json(
      doc(
        {
          "/x": {
            get: {
              operationId: "getX",
              responses: ok,
              externalDocs: { url: `https://a:${canary}@d.example?x=${canary}` },
            },
          },
        },
        {
          info: {
            title: "hostile",
            version: "1",
            termsOfService: `https://t.example/?k=${canary}`,
            contact: { url: `https://u:${canary}@c.example` },
            license: { name: "x", url: `https://l.example#${canary}` },
          },
          externalDocs: { url: `https://e.example/?k=${canary}` },
          components: {
            securitySchemes: {
              oauth: {
                type: "oauth2",
                flows: {
                  authorizationCode: {
                    authorizationUrl: `https://a.example/?k=${canary}`,
                    tokenUrl: `https://u:${canary}@t.example/token`,
                    scopes: {},
                  },
                },
              },
              oidc: { type: "openIdConnect", openIdConnectUrl: `https://o.example/.well-known?k=${canary}` },
            },
          },
        },
      ),
    ),
    want: "compiled",
  });
  add({
    name: "server variables carrying a secret default",
    body: json(
      doc(
        { "/x": { get: { operationId: "getX", responses: ok } } },
        { servers: [{ url: "https://{host}/v1", variables: { host: { default: `${canary}.example` } } }] },
      ),
    ),
    want: { reported: "server-variables" },
  });

  // Unsafe path templates.
  const unsafePaths: [string, string][] = [
    ["absolute URL", "https://evil.example/x"],
    ["protocol-relative URL", "//evil.example/x"],
    ["query string", `/x?api_key=${canary}`],
    ["fragment", "/x#frag"],
    ["no leading slash", "x/y"],
    ["backslash", "/x\\..\\admin"],
    ["javascript: scheme", "javascript:alert(1)"],
  ];
  for (const [what, path] of unsafePaths)
    add({
      name: `path template with a ${what}`,
      body: json(
        doc({
          [path]: { get: { operationId: "bad", responses: ok } },
          "/ok": { get: { operationId: "good", responses: ok } },
        }),
      ),
      want: { reported: "unsafe-path-template" },
      endpoints: ["good"],
    });
  for (const [what, path] of [
    ["dot segments", "/a/../../admin"],
    ["encoded dot segments", "/a/%2e%2e/admin"],
    ["CRLF", "/x\r\nHost: evil"],
    ["NUL", "/x\u0000y"],
    ["unicode", "/ünïcødé/{id}"],
    ["a placeholder with a slash", "/{a/b}"],
  ] as const)
    add({
      name: `path template with ${what}`,
      body: json(
        doc({
          [path]: {
            get: {
              operationId: "odd",
              parameters: path.includes("{id}")
                ? [{ name: "id", in: "path", required: true, schema: { type: "string" } }]
                : [],
              responses: ok,
            },
          },
        }),
      ),
      want: "either",
    });

  // Protocol and credential headers as parameters.
  for (const header of [
    "Authorization",
    "Cookie",
    "Host",
    "Content-Length",
    "Transfer-Encoding",
    "Connection",
    "Proxy-Authorization",
    "X-Forwarded-For",
    "Upgrade",
    "TE",
  ])
    add({
      name: `header parameter ${header}`,
      body: json(
        doc({
          "/x": {
            get: {
              operationId: "getX",
              parameters: [{ name: header, in: "header", schema: { type: "string" } }],
              responses: ok,
            },
          },
        }),
      ),
      want: "compiled",
      endpoints: ["getX"],
    });
  add({
    name: "cookie parameter",
    body: json(
      doc({
        "/x": {
          get: {
            operationId: "getX",
            parameters: [{ name: "sid", in: "cookie", schema: { type: "string" } }],
            responses: ok,
          },
        },
      }),
    ),
    want: { reported: "cookie-param" },
  });

  // Prototype keys everywhere.
  for (const key of ["__proto__", "constructor", "prototype", "hasOwnProperty", "toString"]) {
    add({
      name: `property named ${key}`,
      body: `{"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{"/x":{"get":{"operationId":"getX","responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"type":"object","properties":{"${key}":{"type":"string"}},"required":["${key}"]}}}}}}}}}`,
      want: "either",
    });
    add({
      name: `parameter named ${key}`,
      body: json(
        doc({
          "/x": {
            get: {
              operationId: "getX",
              parameters: [{ name: key, in: "query", schema: { type: "string" } }],
              responses: ok,
            },
          },
        }),
      ),
      want: "either",
    });
    add({
      name: `operationId ${key}`,
      body: json(doc({ "/x": { get: { operationId: key, responses: ok } } })),
      want: "either",
    });
    add({
      name: `component schema named ${key}`,
      body: `{"openapi":"3.1.0","info":{"title":"t","version":"1"},"components":{"schemas":{"${key}":{"type":"string"}}},"paths":{"/x":{"get":{"operationId":"getX","responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/${key}"}}}}}}}}}`,
      want: "either",
    });
  }
  add({
    name: "path key __proto__",
    body: `{"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{"__proto__":{"get":{"operationId":"p","responses":{}}},"/ok":{"get":{"operationId":"ok","responses":{}}}}}`,
    want: "either",
  });

  // Depth and size.
  // Built as text: JSON.stringify itself cannot serialize 3,000 levels.
  for (const [what, open, close] of [
    ["properties", '{"type":"object","properties":{"a":', "}}"],
    ["items", '{"type":"array","items":', "}"],
    ["allOf", '{"allOf":[', "]}"],
    ["anyOf", '{"anyOf":[{"type":"null"},', "]}"],
    ["not", '{"not":', "}"],
  ] as const) {
    // 200 levels compile; 3,000 exceed the document nesting limit (512) and are refused, typed.
    for (const depth of [200, 3000]) {
      const schema = `${open.repeat(depth)}{"type":"string"}${close.repeat(depth)}`;
      add({
        name: `${depth} levels of ${what}`,
        body: json(withSchema("@@")).replace('"@@"', schema),
        want: depth === 200 ? "compiled" : { refused: "SOURCE_INVALID" },
      });
    }
  }
  add({
    name: "10,000-level JSON nesting outside schemas",
    body: `{"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{},"x-deep":${"[".repeat(10_000)}${"]".repeat(10_000)}}`,
    want: { refused: "SOURCE_INVALID" },
  });
  add({
    name: "enum of 100,000 values",
    body: json(withSchema({ type: "string", enum: Array.from({ length: 100_000 }, (_, i) => `v${i}`) })),
    want: "compiled",
  });
  add({
    name: "object of 20,000 properties",
    body: json(
      withSchema({
        type: "object",
        properties: Object.fromEntries(
          Array.from({ length: 20_000 }, (_, i) => [`p${i}`, { type: "integer" }]),
        ),
      }),
    ),
    want: "compiled",
  });
  add({
    name: "5,000 operations",
    body: json(
      doc(
        Object.fromEntries(
          Array.from({ length: 5000 }, (_, i) => [
            `/op${i}`,
            { get: { operationId: `op${i}`, responses: ok } },
          ]),
        ),
      ),
    ),
    want: "compiled",
  });
  add({
    name: "a 1 MB description",
    body: json(
      doc({ "/x": { get: { operationId: "getX", description: "d".repeat(1 << 20), responses: ok } } }),
    ),
    want: "compiled",
  });
  add({
    name: "catastrophic pattern in a schema",
    body: json(withSchema({ type: "string", pattern: "^(a+)+$" })),
    want: "compiled",
  });
  add({
    name: "pattern with lookahead",
    body: json(withSchema({ type: "string", pattern: "^(?!x)" })),
    want: "compiled",
  });
  add({ name: "invalid pattern", body: json(withSchema({ type: "string", pattern: "([" })), want: "either" });
  add({
    name: "100 duplicate operationIds",
    body: json(
      doc(
        Object.fromEntries(
          Array.from({ length: 100 }, (_, i) => [`/d${i}`, { get: { operationId: "same", responses: ok } }]),
        ),
      ),
    ),
    want: "compiled",
  });

  // YAML.
  const laughs = ["a: &a [x, x, x, x, x, x, x, x, x, x]"];
  for (let level = 1; level < 9; level++)
    laughs.push(
      `${String.fromCharCode(97 + level)}: &${String.fromCharCode(97 + level)} [${Array(10)
        .fill(`*${String.fromCharCode(96 + level)}`)
        .join(", ")}]`,
    );
  add({
    name: "YAML alias bomb (billion laughs)",
    body: `openapi: 3.1.0\ninfo: {title: t, version: "1"}\npaths: {}\nx-bomb:\n  ${laughs.join("\n  ")}\n`,
    extension: "yaml",
    want: "refused",
  });
  add({
    name: "YAML !!js/function tag",
    body: "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths: {}\nx: !!js/function 'function(){ return process.exit(1) }'\n",
    extension: "yaml",
    want: "either",
  });
  add({
    name: "YAML custom tag",
    body: "openapi: 3.1.0\ninfo: {title: !secret t, version: '1'}\npaths: {}\n",
    extension: "yaml",
    want: "either",
  });
  add({
    name: "YAML binary tag",
    body: "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths: {}\nx: !!binary aGVsbG8=\n",
    extension: "yaml",
    want: "either",
  });
  add({
    name: "YAML merge keys",
    body: "openapi: 3.1.0\ninfo: &i {title: t, version: '1'}\nx: {<<: *i}\npaths: {}\n",
    extension: "yaml",
    want: "either",
  });
  add({
    name: "YAML duplicate keys",
    body: "openapi: 3.1.0\nopenapi: 3.0.0\ninfo: {title: t, version: '1'}\npaths: {}\n",
    extension: "yaml",
    want: "either",
  });
  add({
    name: "YAML with a secret-bearing anchor reused",
    body: `openapi: 3.1.0\ninfo: {title: t, version: '1'}\nservers: [{url: &u "https://u:${canary}@h.example"}]\nx: *u\npaths: {}\n`,
    extension: "yaml",
    want: "either",
  });

  // Broken files.
  const broken: [string, string | Uint8Array][] = [
    ["empty file", ""],
    ["whitespace only", "   \n\t"],
    ["truncated JSON", json(doc({ "/x": { get: { operationId: "getX", responses: ok } } })).slice(0, 60)],
    ["a lone brace", "{"],
    ["JSON null", "null"],
    ["JSON array", "[1,2,3]"],
    ["JSON number", "3.1"],
    ["JSON string", '"openapi"'],
    ["random bytes", Uint8Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)],
    ["NUL bytes", new Uint8Array(1024)],
    ["UTF-16 with BOM", Buffer.from(`\ufeff${json(doc({}))}`, "utf16le")],
    ["UTF-8 BOM", `\ufeff${json(doc({ "/x": { get: { operationId: "getX", responses: ok } } }))}`],
    ["invalid UTF-8", Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d])],
  ];
  for (const [what, body] of broken)
    add({ name: what, body, want: what === "UTF-8 BOM" ? "either" : "refused" });

  // Versions and shapes.
  for (const version of ["2.0", "4.0.0", "3.2.0", "3", "", "3.1.0-rc0"])
    add({
      name: `openapi version "${version}"`,
      body: json({ ...doc({}), openapi: version }),
      want: "either",
    });
  add({
    name: "swagger 2.0 document",
    body: json({ swagger: "2.0", info: { title: "t", version: "1" }, paths: {} }),
    want: { refused: "SOURCE_INVALID" },
  });
  add({ name: "openapi as a number", body: json({ ...doc({}), openapi: 3.1 }), want: "refused" });
  add({
    name: "no openapi field",
    body: json({ info: { title: "t", version: "1" }, paths: {} }),
    want: "refused",
  });
  add({ name: "paths is an array", body: json({ ...doc({}), paths: [1, 2] }), want: "either" });
  add({ name: "an operation that is a string", body: json(doc({ "/x": { get: "nope" } })), want: "either" });
  add({
    name: "parameters that are not an array",
    body: json(doc({ "/x": { get: { operationId: "getX", parameters: { a: 1 }, responses: ok } } })),
    want: "either",
  });
  add({ name: "responses with a non-object schema", body: json(withSchema(42)), want: "either" });
  add({
    name: "callbacks and webhooks",
    body: json(
      doc(
        {
          "/x": {
            post: {
              operationId: "sub",
              callbacks: { c: { "{$request.body#/url}": { post: { responses: ok } } } },
              responses: ok,
            },
          },
        },
        { webhooks: { hook: { post: { responses: ok } } } },
      ),
    ),
    want: { reported: "webhook" },
  });
  // Request and response bodies beyond JSON (docs/sources/openapi-bodies.md).
  const multipart = (schema: Json, encoding?: Json): Json =>
    doc({
      "/up": {
        post: {
          operationId: "up",
          requestBody: {
            required: true,
            content: { "multipart/form-data": { schema, ...(encoding ? { encoding } : {}) } },
          },
          responses: ok,
        },
      },
    });
  const manyParts: Json = {};
  for (let index = 0; index < 20_000; index++) manyParts[`p${index}`] = { type: "string", format: "binary" };
  add({
    name: "a multipart body with 20,000 parts",
    body: json(multipart({ type: "object", properties: manyParts })),
    want: { reported: "multipart-body" },
    endpoints: [],
  });
  add({
    name: "a multipart part contentType that injects a header line",
    body: json(
      multipart(
        { type: "object", properties: { f: { type: "string" } } },
        { f: { contentType: "text/plain\r\nX-Injected: 1" } },
      ),
    ),
    want: { reported: "multipart-encoding" },
    endpoints: ["up"],
  });
  add({
    name: "multipart part names with quotes, CR/LF and __proto__-like keys",
    body: json(
      multipart({
        type: "object",
        properties: { 'a"\r\nX: y': { type: "string" }, constructor: { type: "string" } },
      }),
    ),
    want: "compiled",
    endpoints: ["up"],
  });
  const disc = (discriminator: unknown, branches: unknown[], schemas: Json) =>
    json(withSchema({ oneOf: branches, discriminator }, { schemas }));
  const A = { type: "object", properties: { k: { type: "string" } } };
  add({
    name: "a discriminator mapping to a schema that does not exist",
    body: disc(
      { propertyName: "k", mapping: { x: "#/components/schemas/Nope" } },
      [{ $ref: "#/components/schemas/A" }],
      { A },
    ),
    want: { reported: "discriminator" },
    endpoints: ["getX"],
  });
  const hugeMapping: Json = {};
  for (let index = 0; index < 50_000; index++) hugeMapping[`v${index}`] = "#/components/schemas/A";
  add({
    name: "a discriminator mapping with 50,000 entries",
    body: disc({ propertyName: "k", mapping: hugeMapping }, [{ $ref: "#/components/schemas/A" }], { A }),
    want: { reported: "discriminator" },
    endpoints: ["getX"],
  });
  add({
    name: "a discriminator on __proto__",
    body: disc({ propertyName: "__proto__" }, [{ $ref: "#/components/schemas/A" }], { A }),
    want: { reported: "discriminator" },
    endpoints: ["getX"],
  });
  add({
    name: "discriminator mapping keys that are prototype names",
    body: disc(
      { propertyName: "k", mapping: { __proto__: "#/components/schemas/A", constructor: "A" } },
      [{ $ref: "#/components/schemas/A" }],
      { A },
    ),
    want: "compiled",
    endpoints: ["getX"],
  });
  const nested: Json = {};
  for (let level = 0; level < 300; level++)
    nested[`D${level}`] =
      level + 1 < 300
        ? {
            oneOf: [
              { $ref: `#/components/schemas/D${level + 1}` },
              { $ref: `#/components/schemas/D${(level * 7) % 300}` },
            ],
            discriminator: { propertyName: "k" },
          }
        : A;
  add({
    name: "300 nested discriminators, each mapping back into the chain",
    body: json(withSchema({ $ref: "#/components/schemas/D0" }, { schemas: nested })),
    want: "either",
  });
  add({
    name: "a discriminator whose only branch is itself",
    body: disc({ propertyName: "k" }, [{ $ref: "#/components/schemas/Self" }], {
      Self: { oneOf: [{ $ref: "#/components/schemas/Self" }], discriminator: { propertyName: "k" } },
    }),
    want: "either",
  });
  return cases;
}
